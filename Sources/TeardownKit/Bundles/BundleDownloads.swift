import Foundation
import ZIPFoundation

/// One archive of a machine's downloads, published under /downloads/.
struct BundleDownload: Sendable, Hashable {
    /// The archive in the cache, named by its digest: the same bytes keep one path, so an
    /// archive made again the same is no change to publish.
    let path: String
    let size: Int
    /// Full SHA-256 of the archive, as 64 hex digits: what apps and CDNs cache by.
    let sha256: String
}

/// A machine's bundle as two archives: its files without the community's comments, and the
/// comments alone, at the same paths below the same folder, so that unpacking both in one
/// place gives the whole bundle. Comments come and go with every sync: in one archive, each
/// one made an app and a deploy fetch every layer and photo again (a comment on a 100-part
/// machine of a generated catalog rewrote a 120 KB archive and catalog.json with it).
struct MachineDownload: Sendable, Hashable {
    /// /downloads/<machine>.zip
    let bundle: BundleDownload
    /// /downloads/comments/<machine>.zip; an archive without entries when there are none.
    let comments: BundleDownload
}

/// Makes every machine's downloads, or finds them in the cache. The same content always gives
/// the same bytes: entries in path order, one fixed date (the machine's `updated`), fixed
/// permissions, and photos as the site publishes them (upright, without camera or location data).
struct BundleDownloads: Sendable {
    /// Bumped whenever the archive's layout or encoding changes. 2: archives from before the
    /// writing lock could hold an entry dated with another machine's date. 3: comments apart.
    static let version = "3"

    /// ZIPFoundation turns each entry's date into a DOS date with gmtime(), whose result the whole
    /// process shares: two archives written at once swapped dates. Keys and cache hits are still
    /// found in parallel; only writing an archive takes turns.
    private static let writing = NSLock()
    /// Formats that are compressed already: stored, since deflating them again only costs time.
    static let storedExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "gif", "zip"]

    let cache: String

    struct Failure: Error, CustomStringConvertible {
        let machine: String
        let reason: String
        /// The device is full: the message says how to make room.
        var noSpace = false
        var description: String { "the download of machine '\(machine)': \(reason)" }
    }

    /// Every machine's downloads by slug. `signatures` are the bundle folders' signatures from
    /// the build's input snapshot: where one is known, the bundle is not walked to find its key.
    func make(_ content: SiteContent, images: ProcessedImages,
              signatures: [String: ContentDigest] = [:]) throws(Failure) -> [String: MachineDownload] {
        try? FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let results = ParallelMap.map(content.machines) { machine in
            Result { () throws(Failure) in
                (machine.slug, try download(of: machine, images: images, signature: signatures[machine.slug]))
            }
        }
        var downloads: [String: MachineDownload] = [:]
        var used = Set<String>()
        for result in results {
            let (slug, download) = try result.get()
            downloads[slug] = download.made
            used.insert(download.reference)
            used.insert(download.made.bundle.path)
            used.insert(download.made.comments.path)
        }
        prune(keeping: Set(used.map { ($0 as NSString).lastPathComponent }))
        return downloads
    }

    /// Whether a path of a bundle is one of the community's comments: `comments/<file>` of the
    /// machine or `parts/<part>/comments/<file>` of a part.
    static func isComment(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return (segments.count == 2 && segments[0] == "comments")
            || (segments.count == 4 && segments[0] == "parts" && segments[2] == "comments")
    }

    /// The files of the bundle by their path in it, and where to read each one. A photos folder
    /// gives only the photos the site publishes (as published) and their sidecars: a photo that
    /// could not be published, or a stray file beside the photos, is not in the download either.
    static func entries(of machine: Machine, images: ProcessedImages) -> [(path: String, source: String)] {
        var published: [String: String] = [:]
        var sidecars = Set<String>()
        for photo in machine.allPhotos {
            guard let processed = images.photos[photo.file.absolutePath], let original = processed.original else { continue }
            published[photo.file.absolutePath] = images.path(processed.key, original)
            if let sidecar = photo.sidecar { sidecars.insert(sidecar.absolutePath) }
        }
        if let cover = machine.cover, let processed = images.photos[cover.absolutePath], let original = processed.original {
            published[cover.absolutePath] = images.path(processed.key, original)
        }
        var files: [(String, String)] = []
        let root = machine.folder.absolutePath
        _ = FileSystem.walk(root) { relative, status in
            let full = root + "/" + relative
            guard !status.isDirectory, FileSystem.isRegularFile(full) else { return }
            if let photo = published[full] {
                files.append((relative, photo))
            } else if relative.split(separator: "/").dropLast().last != "photos" || sidecars.contains(full) {
                files.append((relative, full))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// A machine's downloads, and the cache file that names them by the key of what they were made from.
    private func download(of machine: Machine, images: ProcessedImages, signature: ContentDigest?) throws(Failure)
        -> (made: MachineDownload, reference: String) {
        var fingerprint = Fingerprint()
        fingerprint.add(Self.version)
        fingerprint.add(machine.slug)
        fingerprint.add(machine.updated?.text)
        var walked: [(path: String, source: String)]?
        if let signature {
            // Every file of the folder by its stat signature, and the published form of each photo.
            fingerprint.add(signature)
            for photo in [machine.cover].compactMap({ $0 }) + machine.allPhotos.map(\.file) {
                fingerprint.add(photo.absolutePath)
                fingerprint.add(images.photos[photo.absolutePath]?.key)
                fingerprint.add(images.photos[photo.absolutePath]?.original)
            }
        } else {
            let entries = Self.entries(of: machine, images: images)
            for entry in entries {
                fingerprint.add(entry.path)
                fingerprint.add(entry.source)
                // A file of the image cache is named by what it was made from and never changes, but
                // publishing it as a hard link changes its ctime: its path alone says what it holds.
                if !entry.source.hasPrefix(images.entries + "/") {
                    fingerprint.add(FileSystem.stamp(of: entry.source) ?? ContentDigest(high: 0, low: 0))
                }
            }
            walked = entries
        }
        // The key names the archives' digests; the archives are named by them. A new comment
        // gives a new key, and the bundle's archive is made again, to the same bytes and path.
        let reference = cache + "/" + fingerprint.digest.description + ".ref"
        if let made = readReference(reference) { return (made, reference) }
        do {
            let entries = walked ?? Self.entries(of: machine, images: images)
            let made = MachineDownload(bundle: try archive(entries.filter { !Self.isComment($0.path) }, of: machine),
                                       comments: try archive(entries.filter { Self.isComment($0.path) }, of: machine))
            try FileSystem.writeAtomically(Data((made.bundle.sha256 + " " + made.comments.sha256 + "\n").utf8), to: reference)
            return (made, reference)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(machine: machine.slug, reason: ErrorText.text(error), noSpace: ErrorText.isNoSpace(error))
        }
    }

    /// The archives a reference names, when both are in the cache.
    private func readReference(_ path: String) -> MachineDownload? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let digests = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard digests.count == 2, digests.allSatisfy({ $0.utf8.count == 64 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        let found = digests.map { digest -> (download: BundleDownload, changed: Double)? in
            let archive = cache + "/" + digest + ".zip"
            return FileSystem.status(archive).map { (BundleDownload(path: archive, size: $0.size, sha256: digest), $0.changed) }
        }
        guard let bundle = found[0], let comments = found[1] else { return nil }
        // Marked in use now and then (the `stat` that sized them says when they were last), so
        // that a build of the same site elsewhere (serve's preview beside sync's public/) does
        // not prune what this one links.
        if Self.age(min(bundle.changed, comments.changed)) > Self.inUseMark {
            for file in [path, bundle.download.path, comments.download.path] { FileSystem.touch(file) }
        }
        return MachineDownload(bundle: bundle.download, comments: comments.download)
    }

    /// Seconds since a file's `Status.changed`.
    private static func age(_ changed: Double) -> Double { Date().timeIntervalSince1970 - changed }

    /// Zips `entries` into the cache under the digest of the archive's bytes.
    private func archive(_ entries: [(path: String, source: String)], of machine: Machine) throws -> BundleDownload {
        let temporary = cache + "/.\(machine.slug.prefix(32)).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileSystem.unlinkIfPresent(temporary) }
        try Self.writing.withLock { try write(entries, of: machine, to: temporary) }
        let data = try Data(contentsOf: URL(fileURLWithPath: temporary), options: .mappedIfSafe)
        let sha = SHA256Hex.of(data)
        let path = cache + "/" + sha + ".zip"
        // Never replaced in place: a published copy may be a link to it. One made again the same
        // (the bundle's, after a comment) is marked in use, as a reference read is.
        if FileSystem.size(of: path) != data.count { try FileSystem.rename(temporary, to: path) } else { FileSystem.touch(path) }
        return BundleDownload(path: path, size: data.count, sha256: sha)
    }

    /// Bundles up to this size are zipped in memory: ZIPFoundation rewrites the archive's
    /// directory after every entry, which on disk made a bundle of 300 files take seconds.
    static let inMemoryLimit = 64 << 20

    private func write(_ entries: [(path: String, source: String)], of machine: Machine, to path: String) throws {
        let total = entries.reduce(0) { $0 + (FileSystem.size(of: $1.source) ?? 0) }
        let inMemory = total <= Self.inMemoryLimit
        let archive = inMemory ? try Archive(data: Data(), accessMode: .create)
            : try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        try add(entries, of: machine, to: archive)
        if inMemory {
            guard let data = archive.data else { throw Failure(machine: machine.slug, reason: "the archive was not made") }
            try data.write(to: URL(fileURLWithPath: path))
        }
    }

    private func add(_ entries: [(path: String, source: String)], of machine: Machine, to archive: Archive) throws {
        // DOS dates start in 1980; a machine with no `updated` gets that first day.
        let date = machine.updated?.date ?? Date(timeIntervalSince1970: 315_532_800)
        for entry in entries {
            guard let size = FileSystem.size(of: entry.source) else {
                throw Failure(machine: machine.slug, reason: "\(entry.source) cannot be read")
            }
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: entry.source))
            defer { try? handle.close() }
            let stored = Self.storedExtensions.contains((entry.path as NSString).pathExtension.lowercased())
            // A folder named like the machine, so unpacking never scatters files beside others.
            try archive.addEntry(with: machine.slug + "/" + entry.path, type: .file, uncompressedSize: Int64(size),
                                 modificationDate: date, permissions: 0o644,
                                 compressionMethod: stored ? .none : .deflate) { position, length in
                try handle.seek(toOffset: UInt64(position))
                return try handle.read(upToCount: length) ?? Data()
            }
        }
    }

    /// How old a file's mark of use may get before a build that uses it renews it.
    static let inUseMark: Double = 12 * 3600
    /// How long an archive no machine of this build uses is kept: another build of the same
    /// site into another folder may be linking it (a sync's build pruned what a preview build
    /// beside it was about to publish, and that build failed).
    static let unusedKept: Double = 24 * 3600

    /// Removes archives and references no machine of this build uses and none has used for a day.
    private func prune(keeping used: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? [] {
            let path = cache + "/" + name
            if !used.contains(name), !name.hasPrefix("."), Self.age(FileSystem.status(path)?.changed ?? 0) > Self.unusedKept {
                try? FileSystem.unlinkIfPresent(path)
            }
        }
    }
}
