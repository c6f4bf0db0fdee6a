import Foundation

/// Processed images in the git-ignored cache folder, so an unchanged photo is never processed
/// again. An entry is named by a digest of the source's bytes, the operation and its settings;
/// a source's digest is remembered with the file's stat signature, so unchanged files are not
/// read again either. Entries a build no longer uses are pruned when it ends.
final class ImageCache: @unchecked Sendable {
    /// A cached outcome: the result, or why the image cannot be used (kept too, so a broken
    /// photo is not decoded again on every build).
    enum Outcome: Sendable {
        case photo(ProcessedPhoto)
        case layer(ProcessedLayer)
        case failed(ImageFailure)
    }

    /// One line of the outcome index: a dictionary's keys would need stored keys, which the
    /// positional coder does not keep.
    private struct Stored: Codable {
        let key: String
        let outcome: Outcome
    }

    /// How many source files were read and hashed with each cache root in this process: a
    /// test checks that unchanged files are known by their signature alone.
    static let sourcesHashed = Locked<[String: Int]>([:])

    let root: String
    var entries: String { root + "/entries" }
    private let lock = NSLock()
    private var sources: [String: (signature: UInt64, digest: String)] = [:]
    private var outcomes: [String: Outcome] = [:]
    private var used = Set<String>()
    private var usedSources = Set<String>()
    /// Whether the indexes differ from what is on disk: they are rewritten only then.
    private var changed = false

    /// The keys of one bundle's images, in job order, as the last build made them from the
    /// bundle's signature and the image settings.
    struct BundleKeys: Codable, Equatable, Sendable {
        let bundle: String
        let signature: ContentDigest
        let paths: [String]
        let keys: [String]
    }

    /// The bundle key index, for one set of image settings.
    private struct StoredBundles: Codable {
        let settings: String
        let bundles: [BundleKeys]
    }

    private var bundlesRead: StoredBundles?
    private var bundlesNow: StoredBundles?

    init(root: String) {
        self.root = root
        if let data = FileManager.default.contents(atPath: root + "/sources") { sources = Self.sources(in: data) }
        // The index is read on every build: at 10,000 layers, decoding it as JSON was most of the
        // image step's 0.9 s in a one-comment rebuild, which the positional form halved. The JSON
        // index of earlier versions is still read once, so an upgrade does not make every image again.
        if let data = FileManager.default.contents(atPath: root + "/outcomes.bin"),
           let stored = try? BinaryDecoder().decode([Stored].self, from: data) {
            outcomes = Dictionary(stored.map { ($0.key, $0.outcome) }, uniquingKeysWith: { first, _ in first })
        } else if let data = FileManager.default.contents(atPath: root + "/outcomes"),
                  let stored = try? JSONDecoder().decode([String: LegacyOutcome].self, from: data) {
            outcomes = stored.mapValues(\.outcome)
            changed = true
        }
    }

    /// The source index's lines, "<path>\t<hex signature>\t<digest>", cut from the bytes: split
    /// as Strings, reading it was two thirds of the image step's own time in a one-comment sync
    /// at 10,000 parts. A line that does not parse is left out, which costs only a re-read.
    private static func sources(in data: Data) -> [String: (signature: UInt64, digest: String)] {
        var sources: [String: (signature: UInt64, digest: String)] = [:]
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            sources.reserveCapacity(bytes.count / 120)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                defer { start = end + 1 }
                let line = bytes[start..<end]
                guard let first = line.firstIndex(of: UInt8(ascii: "\t")),
                      let second = line[(first + 1)...].firstIndex(of: UInt8(ascii: "\t")),
                      !line[(second + 1)...].contains(UInt8(ascii: "\t")),
                      let signature = UInt64(String(decoding: UnsafeBufferPointer(rebasing: line[(first + 1)..<second]), as: UTF8.self),
                                             radix: 16)
                else { continue }
                let path = String(decoding: UnsafeBufferPointer(rebasing: line[..<first]), as: UTF8.self)
                sources[path] = (signature, String(decoding: UnsafeBufferPointer(rebasing: line[(second + 1)...]), as: UTF8.self))
            }
        }
        return sources
    }

    /// The keys each bundle's images had in the last build with `settings`, by bundle.
    func bundleKeys(settings: String) -> [String: BundleKeys] {
        lock.lock()
        defer { lock.unlock() }
        if bundlesRead == nil, let data = FileManager.default.contents(atPath: root + "/bundles.bin") {
            bundlesRead = try? BinaryDecoder().decode(StoredBundles.self, from: data)
        }
        guard let stored = bundlesRead, stored.settings == settings else { return [:] }
        return Dictionary(stored.bundles.map { ($0.bundle, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Keeps this build's keys by bundle, written by `finish` when they changed.
    func rememberBundleKeys(settings: String, _ bundles: [BundleKeys]) {
        lock.lock()
        bundlesNow = StoredBundles(settings: settings, bundles: bundles)
        lock.unlock()
    }

    /// Sources whose digests the bundle key index vouched for: their lines in the source index stay.
    func useSources(_ paths: some Sequence<String>) {
        lock.lock()
        usedSources.formUnion(paths)
        lock.unlock()
    }

    /// The SHA-256 of a file's bytes, read again only when its stat signature changed.
    func digest(of path: String) throws(ImageFailure) -> String {
        guard let status = FileSystem.status(path) else { throw .unreadable("the file cannot be read") }
        lock.lock()
        let known = sources[path]
        usedSources.insert(path)
        lock.unlock()
        if let known, known.signature == status.signature { return known.digest }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else {
            throw .unreadable("the file cannot be read")
        }
        let digest = SHA256Hex.of(data)
        Self.sourcesHashed.withLock { $0[root, default: 0] += 1 }
        lock.lock()
        sources[path] = (status.signature, digest)
        changed = true
        lock.unlock()
        return digest
    }

    /// The outcome stored under `key`, when its files are still there.
    func outcome(_ key: String) -> Outcome? {
        outcomes([key])[0]
    }

    /// The outcomes stored under `keys`, each when its files are still there, under one lock.
    func outcomes(_ keys: [String]) -> [Outcome?] {
        lock.lock()
        defer { lock.unlock() }
        let present = presentEntries()
        return keys.map { key in
            used.insert(key)
            switch outcomes[key] {
            case let outcome? where outcome.hasFiles: return present.contains(key) ? outcome : nil
            case let outcome: return outcome
            }
        }
    }

    /// The names in the entries folder, listed once (under the lock): a `stat` of each image's
    /// entry, with a lock taken per image, was most of the image step in a one-comment sync at
    /// 10,000 parts. Entries made since are added by `store`; `finish` prunes from this list.
    private func presentEntries() -> Set<String> {
        if let present { return present }
        let listed = Set((try? FileManager.default.contentsOfDirectory(atPath: entries)) ?? [])
        present = listed
        return listed
    }

    private var present: Set<String>?

    /// Makes the files of entry `key` in a hidden folder given to `make`, then renames it into
    /// place, so a build killed half-way never leaves a partial entry behind.
    func store(_ key: String, _ make: (String) throws(ImageFailure) -> Outcome) -> Outcome {
        let folder = entries + "/" + key
        let temporary = entries + "/.\(key).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let outcome: Outcome
        do {
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        } catch {
            // The cache cannot be written: report it like an unreadable image, and keep nothing.
            return .failed(.unreadable("the image cache cannot be written: \(error)"))
        }
        do throws(ImageFailure) {
            let made = try make(temporary)
            if case .failed = made {
                try? FileSystem.removeTree(temporary)
            } else {
                try? FileSystem.removeTree(folder)
                do { try FileSystem.rename(temporary, to: folder) } catch {
                    try? FileSystem.removeTree(temporary)
                    // Another build (of another output of the same site) made the same entry
                    // meanwhile: its files are the same, since the key names what they are made of.
                    guard FileSystem.isDirectory(folder) else {
                        return .failed(.unreadable("the image cache cannot be written: \(error)"))
                    }
                }
            }
            outcome = made
        } catch {
            try? FileSystem.removeTree(temporary)
            outcome = .failed(error)
        }
        lock.lock()
        outcomes[key] = outcome
        used.insert(key)
        if outcome.hasFiles { _ = presentEntries(); present?.insert(key) }
        changed = true
        lock.unlock()
        return outcome
    }

    /// Removes every entry this build did not use, and writes the indexes when they changed.
    /// Losing the indexes costs only time, so they are written without fsync.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if let now = bundlesNow, now.settings != bundlesRead?.settings || now.bundles != bundlesRead?.bundles,
           let data = try? BinaryEncoder().encode(now) {
            try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            FileSystem.replaceFile(data, at: root + "/bundles.bin")
        }
        let kept = outcomes.filter { used.contains($0.key) }
        let keptSources = sources.filter { usedSources.contains($0.key) }
        // Entries another build (of another output) made meanwhile are not in the list, so not pruned.
        for name in presentEntries() where !used.contains(name) {
            // Hidden folders are other builds' entries in the making, unless their process is gone.
            if name.hasPrefix("."), let pid = pid_t(name.split(separator: "-").dropFirst().first ?? ""),
               kill(pid, 0) == 0 || Glibc.errno != ESRCH {
                continue
            }
            try? FileSystem.removeTree(entries + "/" + name)
        }
        guard changed || kept.count != outcomes.count || keptSources.count != sources.count else { return }
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let stored = kept.sorted { $0.key < $1.key }.map { Stored(key: $0.key, outcome: $0.value) }
        if let data = try? BinaryEncoder().encode(stored) { FileSystem.replaceFile(data, at: root + "/outcomes.bin") }
        try? FileSystem.unlinkIfPresent(root + "/outcomes")
        let lines = keptSources.sorted { $0.key < $1.key }
            .map { "\($0.key)\t\(String($0.value.signature, radix: 16))\t\($0.value.digest)\n" }
        FileSystem.replaceFile(Data(lines.joined().utf8), at: root + "/sources")
    }

}

extension ImageCache.Outcome {
    /// Whether the outcome has files in its entry folder (a failure has none).
    var hasFiles: Bool {
        if case .failed = self { return false }
        return true
    }
}

extension ImageCache.Outcome: Codable {
    private enum Kind: Int, Codable { case photo, layer, failed }

    /// A kind, then its value: the positional coder cannot read an enum's synthesized coding.
    init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        switch try container.decode(Kind.self) {
        case .photo: self = .photo(try container.decode(ProcessedPhoto.self))
        case .layer: self = .layer(try container.decode(ProcessedLayer.self))
        case .failed:
            let code = try container.decode(Int.self), text = try container.decode(String.self)
            switch code {
            case 0: self = .failed(.unreadable(text))
            case 1: self = .failed(.empty)
            case 2: self = .failed(.notAnImage)
            case 3: self = .failed(.wrongFormat(found: ImageFormat(rawValue: text) ?? .jpeg))
            default: self = .failed(.undecodable(text))
            }
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .photo(let photo): try container.encode(Kind.photo); try container.encode(photo)
        case .layer(let layer): try container.encode(Kind.layer); try container.encode(layer)
        case .failed(let failure):
            try container.encode(Kind.failed)
            switch failure {
            case .unreadable(let why): try container.encode(0); try container.encode(why)
            case .empty: try container.encode(1); try container.encode("")
            case .notAnImage: try container.encode(2); try container.encode("")
            case .wrongFormat(let found): try container.encode(3); try container.encode(found.rawValue)
            case .undecodable(let why): try container.encode(4); try container.encode(why)
            }
        }
    }
}

/// The outcome as the JSON index of earlier versions stored it.
private enum LegacyOutcome: Decodable {
    case photo(ProcessedPhoto)
    case layer(ProcessedLayer)
    case failed(ImageFailure)

    var outcome: ImageCache.Outcome {
        switch self {
        case .photo(let photo): .photo(photo)
        case .layer(let layer): .layer(layer)
        case .failed(let failure): .failed(failure)
        }
    }
}
