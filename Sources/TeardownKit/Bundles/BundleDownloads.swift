import Foundation
import ZIPFoundation

/// A machine's whole bundle as one .zip, published at /downloads/<machine>.zip.
struct BundleDownload: Sendable, Hashable {
    /// The archive in the cache.
    let path: String
    let size: Int
    /// Full SHA-256 of the archive, as 64 hex digits: what apps and CDNs cache by.
    let sha256: String
}

/// Makes every machine's download, or finds it in the cache. The same content always gives
/// the same bytes: entries in path order, one fixed date (the machine's `updated`), fixed
/// permissions, and photos as the site publishes them (upright, without camera or location data).
struct BundleDownloads: Sendable {
    /// Bumped whenever the archive's layout or encoding changes. 2: archives from before the
    /// writing lock could hold an entry dated with another machine's date.
    static let version = "2"

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
        var description: String { "the download of machine '\(machine)': \(reason)" }
    }

    /// Every machine's download by slug. `signatures` are the bundle folders' signatures from
    /// the build's input snapshot: where one is known, the bundle is not walked to find its key.
    func make(_ content: SiteContent, images: ProcessedImages,
              signatures: [String: ContentDigest] = [:]) throws(Failure) -> [String: BundleDownload] {
        try? FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let results = ParallelMap.map(content.machines) { machine in
            Result { () throws(Failure) in
                (machine.slug, try download(of: machine, images: images, signature: signatures[machine.slug]))
            }
        }
        var downloads: [String: BundleDownload] = [:]
        for result in results {
            let (slug, download) = try result.get()
            downloads[slug] = download
        }
        prune(keeping: Set(downloads.values.map { ($0.path as NSString).lastPathComponent }))
        return downloads
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

    private func download(of machine: Machine, images: ProcessedImages, signature: ContentDigest?) throws(Failure) -> BundleDownload {
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
        let key = fingerprint.digest.description
        let path = cache + "/" + key + ".zip"
        if let size = FileSystem.size(of: path),
           let sha = try? String(contentsOfFile: path + ".sha256", encoding: .utf8), sha.utf8.count == 64 {
            return BundleDownload(path: path, size: size, sha256: sha)
        }
        let temporary = cache + "/.\(key).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileSystem.unlinkIfPresent(temporary) }
        do {
            let entries = walked ?? Self.entries(of: machine, images: images)
            try Self.writing.withLock { try write(entries, of: machine, to: temporary) }
            let data = try Data(contentsOf: URL(fileURLWithPath: temporary), options: .mappedIfSafe)
            let sha = SHA256Hex.of(data)
            try FileSystem.rename(temporary, to: path)
            try Data(sha.utf8).write(to: URL(fileURLWithPath: path + ".sha256"))
            return BundleDownload(path: path, size: data.count, sha256: sha)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(machine: machine.slug, reason: "\(error)")
        }
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

    /// Removes archives no machine of this build uses.
    private func prune(keeping used: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? [] {
            let archive = name.hasSuffix(".sha256") ? String(name.dropLast(".sha256".count)) : name
            if !used.contains(archive), !name.hasPrefix(".") { try? FileSystem.unlinkIfPresent(cache + "/" + name) }
        }
    }
}
