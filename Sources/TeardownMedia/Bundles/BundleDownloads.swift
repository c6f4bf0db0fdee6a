import Foundation
import ZIPFoundation
import TeardownBase
import TeardownContent

/// One archive of a machine's downloads, published under /downloads/.
package struct BundleDownload: Sendable, Hashable {
    /// The archive in the cache, named by its digest: the same bytes keep one path, so an
    /// archive made again the same is no change to publish.
    package let path: String
    package let size: Int
    /// Full SHA-256 of the archive, as 64 hex digits: what apps and CDNs cache by.
    package let sha256: String
}

/// A machine's bundle as two archives: its files without the community's comments, and the
/// comments alone, at the same paths below the same folder, so that unpacking both in one
/// place gives the whole bundle. Comments come and go with every sync: in one archive, each
/// one made an app and a deploy fetch every layer and photo again (and rewrote catalog.json).
package struct MachineDownload: Sendable, Hashable {
    /// /downloads/<machine>.zip
    package let bundle: BundleDownload
    /// /downloads/comments/<machine>.zip; an archive without entries when there are none.
    package let comments: BundleDownload
}

/// Makes every machine's downloads, or finds them in the cache. The same content always gives
/// the same bytes: entries in path order, one fixed date (the machine's `updated`), fixed
/// permissions, and photos as the site publishes them (upright, without camera or location data).
package struct BundleDownloads: Sendable {
    /// Bumped whenever the archive's layout or encoding changes. 2: archives from before the
    /// writing lock could hold an entry dated with another machine's date. 3: comments apart.
    package static let version = "3"

    /// ZIPFoundation turns each entry's date into a DOS date with gmtime(), whose result the whole
    /// process shares: two archives written at once swapped dates. Keys and cache hits are still
    /// found in parallel; only writing an archive takes turns.
    private static let writing = NSLock()
    /// Formats that are compressed already: stored, since deflating them again only costs time.
    package static let storedExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "gif", "zip"]

    package let cache: String
    /// Where archives zipped are counted.
    package let counters: BuildCounters

    package init(cache: String, counters: BuildCounters = .none) {
        self.cache = cache
        self.counters = counters
    }

    package struct Failure: Error, CustomStringConvertible {
        package let machine: String
        package let reason: String
        /// The device is full: the message says how to make room.
        package var noSpace = false
        package var description: String { "the download of machine '\(machine)': \(reason)" }
    }

    /// Every machine's downloads by slug. `signatures` are the bundle folders' signatures from
    /// the build's input snapshot: where one is known, the bundle is not walked to find its key.
    package func make(_ content: SiteContent, images: ProcessedImages, signatures: [String: ContentDigest] = [:],
                      of machines: [Int]? = nil) throws(Failure) -> [String: MachineDownload] {
        // A folder that cannot be made fails the first write below, which says where.
        try? FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let results = ParallelMap.map(machines.map { $0.map { content.machines[$0] } } ?? content.machines) { machine in
            Result { () throws(Failure) in
                (machine.slug, try download(of: machine, images: images, signature: signatures[machine.slug]))
            }
        }
        var downloads: [String: MachineDownload] = [:]
        var used = Set<String>()
        for result in results {
            let (slug, download) = try result.get()
            downloads[slug] = download.made
            used.formUnion(download.references)
            used.insert(download.made.bundle.path)
            used.insert(download.made.comments.path)
        }
        // Every path is the cache's own: its name is what follows the folder. Only a build that
        // found every machine's knows what is unused.
        if machines == nil { prune(keeping: Set(used.map { String($0.dropFirst(cache.count + 1)) })) }
        return downloads
    }

    /// One machine's downloads, found in the cache (or made, if the cache lost them), for a
    /// page that lists a machine the plan step did not look at. Nil when they cannot be made:
    /// the make of the build that planned the machine succeeded, so only a cache that has
    /// since become unwritable gets here, and the page shows no download rather than no page.
    package func find(_ machine: Machine, images: ProcessedImages, signature: ContentDigest?) -> MachineDownload? {
        try? download(of: machine, images: images, signature: signature).made
    }

    /// Whether a path of a bundle is one of the community's comments: `comments/<file>` of the
    /// machine or `parts/<part>/comments/<file>` of a part.
    package static func isComment(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return (segments.count == 2 && segments[0] == "comments")
            || (segments.count == 4 && segments[0] == "parts" && segments[2] == "comments")
    }

    /// The files of the bundle by their path in it, and where to read each one. A photos folder
    /// gives only the photos the site publishes (as published) and their sidecars: a photo that
    /// could not be published, or a stray file beside the photos, is not in the download either.
    /// One file of a download: its path in the bundle, where it is read from, and the `stat`
    /// stamp the walk that found it took (nil for a published photo, named by its image key).
    package typealias Entry = (path: String, source: String, stamp: ContentDigest?)

    package static func entries(of machine: Machine, images: ProcessedImages) -> [Entry] {
        var published: [String: String] = [:]
        var sidecars = Set<String>()
        for photo in machine.allPhotos {
            guard let processed = images.photo(photo.file.absolutePath), let original = processed.original else { continue }
            published[photo.file.absolutePath] = images.path(processed.key, original)
            if let sidecar = photo.sidecar { sidecars.insert(sidecar.absolutePath) }
        }
        if let cover = machine.cover, let processed = images.photo(cover.absolutePath), let original = processed.original {
            published[cover.absolutePath] = images.path(processed.key, original)
        }
        var files: [Entry] = []
        let root = machine.folder.absolutePath
        _ = FileSystem.walk(root) { relative, status in
            let full = root + "/" + relative
            // The walk's status follows links: one that may be a link is looked at again, so a
            // link to a file outside the bundle is never zipped.
            guard status.isRegularFile, !status.mayBeLink || FileSystem.isRegularFile(full) else { return }
            if let photo = published[full] {
                files.append((relative, photo, nil))
            } else if relative.split(separator: "/").dropLast().last != "photos" || sidecars.contains(full) {
                // The walk's stamp is the one `FileSystem.stamp(of:)` would take again: a stat
                // by whole path per file was most of the download step of a one-comment sync.
                files.append((relative, full, ContentDigest(high: status.signature, low: 0)))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// A machine's downloads, and the cache files that name them by the keys of what they were made from.
    private func download(of machine: Machine, images: ProcessedImages, signature: ContentDigest?) throws(Failure)
        -> (made: MachineDownload, references: [String]) {
        var fingerprint = Self.fingerprint(of: machine)
        var walked: [Entry]?
        if let signature {
            // Every file of the folder by its stat signature, and the published form of each photo.
            fingerprint.add(signature)
            for photo in [machine.cover].compactMap({ $0 }) + machine.allPhotos.map(\.file) {
                fingerprint.add(photo.absolutePath)
                fingerprint.add(images.photo(photo.absolutePath)?.key)
                fingerprint.add(images.photo(photo.absolutePath)?.original)
            }
        } else {
            let entries = Self.entries(of: machine, images: images)
            Self.add(entries, images: images, to: &fingerprint)
            walked = entries
        }
        // The key names the archives' digests; the archives are named by them.
        let reference = cache + "/" + fingerprint.digest.description + ".ref"
        if let (made, keys) = readReference(reference) { return (made, [reference] + keys) }
        do {
            // A new comment gives a new key: the folder is walked, and each archive is looked up
            // by a key of its own entries, so that the bundle's is not made again with the
            // comments' (zipping it again gives the same bytes, at a cost a one-comment sync showed).
            let entries = walked ?? Self.entries(of: machine, images: images)
            let bundle = try archive(entries.filter { !Self.isComment($0.path) }, of: machine, images: images)
            let comments = try archive(entries.filter { Self.isComment($0.path) }, of: machine, images: images)
            let made = MachineDownload(bundle: bundle.made, comments: comments.made)
            let text = [made.bundle.sha256, made.comments.sha256, bundle.key, comments.key].joined(separator: " ") + "\n"
            try FileSystem.writeAtomically(Data(text.utf8), to: reference)
            return (made, [reference, bundle.reference, comments.reference])
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(machine: machine.slug, reason: ErrorText.text(error), noSpace: ErrorText.isNoSpace(error))
        }
    }

    /// What every key of a machine's archives starts with: a new layout, another name or
    /// another date gives other archives.
    private static func fingerprint(of machine: Machine) -> Fingerprint {
        var fingerprint = Fingerprint()
        fingerprint.add(Self.version)
        fingerprint.add(machine.slug)
        fingerprint.add(machine.updated?.text)
        return fingerprint
    }

    /// Each entry's path and source, and the `stat` stamp of a source outside the image cache.
    private static func add(_ entries: [Entry], images: ProcessedImages,
                            to fingerprint: inout Fingerprint) {
        for entry in entries {
            fingerprint.add(entry.path)
            fingerprint.add(entry.source)
            // A file of the image cache is named by what it was made from and never changes, but
            // publishing it as a hard link changes its ctime: its path alone says what it holds.
            if !entry.source.hasPrefix(images.entries + "/") {
                fingerprint.add(entry.stamp ?? FileSystem.stamp(of: entry.source) ?? ContentDigest(high: 0, low: 0))
            }
        }
    }

    /// The archives a reference names, when both are in the cache, with the references of each.
    private func readReference(_ path: String) -> (MachineDownload, [String])? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        // Split as bytes, not by Character: a machine's reference lists every file of its bundle.
        let tokens = text.utf8.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }.compactMap { String($0) }
        guard tokens.count == 4, tokens.allSatisfy(Self.isHex),
              let bundle = found(tokens[0]), let comments = found(tokens[1]) else { return nil }
        let keys = tokens[2...].map { cache + "/" + $0 + ".one" }
        // Marked in use now and then (the `stat` that sized them says when they were last), so
        // that a build of the same site elsewhere (serve's preview beside sync's public/) does
        // not prune what this one links.
        if Self.age(min(bundle.changed, comments.changed)) > Self.inUseMark {
            for file in [path, bundle.download.path, comments.download.path] + keys { FileSystem.touch(file) }
        }
        return (MachineDownload(bundle: bundle.download, comments: comments.download), keys)
    }

    private static func isHex(_ text: String) -> Bool {
        text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The archive in the cache named by `digest`, if it is there.
    private func found(_ digest: String) -> (download: BundleDownload, changed: Double)? {
        guard digest.utf8.count == 64, Self.isHex(digest) else { return nil }
        let archive = cache + "/" + digest + ".zip"
        return FileSystem.status(archive).map { (BundleDownload(path: archive, size: $0.size, sha256: digest), $0.changed) }
    }

    /// Seconds since a file's `Status.changed`.
    private static func age(_ changed: Double) -> Double { Date().timeIntervalSince1970 - changed }

    /// One archive of `entries`: found by the key of those entries (a `<key>.one` file naming
    /// its digest), or zipped into the cache under the digest of its bytes.
    private func archive(_ entries: [Entry], of machine: Machine,
                         images: ProcessedImages) throws -> (made: BundleDownload, key: String, reference: String) {
        var fingerprint = Self.fingerprint(of: machine)
        Self.add(entries, images: images, to: &fingerprint)
        let key = fingerprint.digest.description
        let reference = cache + "/" + key + ".one"
        // A reference file that cannot be read is a miss: the download is made again.
        if let text = try? String(contentsOfFile: reference, encoding: .utf8),
           let (made, changed) = found(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            if Self.age(changed) > Self.inUseMark { for file in [reference, made.path] { FileSystem.touch(file) } }
            return (made, key, reference)
        }
        let made = try zip(entries, of: machine)
        try FileSystem.writeAtomically(Data((made.sha256 + "\n").utf8), to: reference)
        return (made, key, reference)
    }

    /// Zips `entries` into the cache under the digest of the archive's bytes.
    private func zip(_ entries: [Entry], of machine: Machine) throws -> BundleDownload {
        counters.count(.bundlesZipped)
        let temporary = cache + "/.\(machine.slug.prefix(32)).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        // A scratch file left behind costs only space; the prune below removes it later.
        defer { try? FileSystem.unlinkIfPresent(temporary) }
        try Self.writing.withLock { try write(entries, of: machine, to: temporary) }
        let data = try Data(contentsOf: URL(fileURLWithPath: temporary), options: .mappedIfSafe)
        let sha = SHA256Hex.of(data)
        let path = cache + "/" + sha + ".zip"
        // Never replaced in place: a published copy may be a link to it. One made again the same
        // is marked in use, as a reference read is.
        if FileSystem.size(of: path) != data.count { try FileSystem.rename(temporary, to: path) } else { FileSystem.touch(path) }
        return BundleDownload(path: path, size: data.count, sha256: sha)
    }

    /// Bundles up to this size are zipped in memory: ZIPFoundation rewrites the archive's
    /// directory after every entry, which on disk made a bundle of 300 files take seconds.
    package static let inMemoryLimit = 64 << 20

    private func write(_ entries: [Entry], of machine: Machine, to path: String) throws {
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

    private func add(_ entries: [Entry], of machine: Machine, to archive: Archive) throws {
        // DOS dates start in 1980; a machine with no `updated` gets that first day.
        let date = machine.updated?.date ?? Date(timeIntervalSince1970: 315_532_800)
        for entry in entries {
            // Read whole, once: a handle, a URL and a stat of their own per file were most of
            // zipping a machine's comments after one more.
            guard let data = FileManager.default.contents(atPath: entry.source) else {
                throw Failure(machine: machine.slug, reason: "\(entry.source) cannot be read")
            }
            let stored = Self.storedExtensions.contains((entry.path as NSString).pathExtension.lowercased())
            // A folder named like the machine, so unpacking never scatters files beside others.
            try archive.addEntry(with: machine.slug + "/" + entry.path, type: .file, uncompressedSize: Int64(data.count),
                                 modificationDate: date, permissions: 0o644,
                                 compressionMethod: stored ? .none : .deflate) { position, length in
                let start = data.startIndex + Int(position)
                return data.subdata(in: start..<min(start + length, data.endIndex))
            }
        }
    }

    /// How old a file's mark of use may get before a build that uses it renews it.
    package static let inUseMark: Double = 12 * 3600
    /// How long an archive no machine of this build uses is kept: another build of the same
    /// site into another folder may be linking it (a sync's build pruned what a preview build
    /// beside it was about to publish, and that build failed).
    package static let unusedKept: Double = 24 * 3600

    /// How long builds that find only some machines' downloads may go without a prune: they
    /// cannot tell what is unused, and a catalog that only ever gets comments would otherwise
    /// keep every comments' archive it ever made.
    package static let pruneInterval: Double = 3600

    /// When the last prune was, as seconds since 1970 in a file of its own.
    private var pruneStamp: String { cache + "/.pruned" }

    /// Whether this build should find every machine's downloads, so that it can prune: there
    /// was no prune, or the last is older than `pruneInterval`.
    package func pruneDue() -> Bool {
        guard let data = FileManager.default.contents(atPath: pruneStamp),
              let time = Double(String(decoding: data, as: UTF8.self)) else { return true }
        return Self.age(time) > Self.pruneInterval
    }

    /// Removes archives and references no machine of this build uses and none has used for a day.
    private func prune(keeping used: Set<String>) {
        for name in FileSystem.names(in: cache) {
            let path = cache + "/" + name
            if !used.contains(name), !name.hasPrefix("."), Self.age(FileSystem.status(path)?.changed ?? 0) > Self.unusedKept {
                // An unused download that stays costs only space; the next prune tries again.
                try? FileSystem.unlinkIfPresent(path)
            }
        }
        // A stamp not written makes the next build prune again, which costs only time.
        _ = FileSystem.replaceFile(Data(String(Date().timeIntervalSince1970).utf8), at: pruneStamp)
    }
}
