import Foundation
import TeardownBase

/// Machine bundles as the loader left them, kept between builds: a rebuild parses only the
/// bundles whose files changed and takes the others, with their warnings, from here.
///
/// A bundle's entry is named by its folder and vouched for by the bundle's signature: a digest
/// of the `stat` signature of every file and folder in it (a racy one by its content too), as
/// the build's input snapshot recorded them. The cache as a whole belongs to one key: the
/// version of Teardown, the site's folder and site.yaml, whose limits shape what loading warns
/// about. An entry that does not decode, or that belongs to another key or signature, is
/// loaded again from its files, so the cache can only cost speed, never correctness. Entries
/// are written to a temporary file and renamed, so a kill leaves each one whole or absent.
package struct ContentCache: Sendable {
    /// Bumped whenever the stored form of loaded content changes.
    package static let format = "teardown-content 9"

    package let folder: String
    package let key: ContentDigest
    package var counters: BuildCounters = .none

    /// Where the cache is, and the bundle signatures a fresh snapshot vouches for: what a
    /// loader needs to use it.
    package struct Use: Sendable {
        package let folder: String
        package let signatures: [String: ContentDigest]
        /// The settled part signatures of one bundle now (`InputSnapshot.PartSignatures`).
        package var parts: @Sendable (String) -> [String: ContentDigest] = { _ in [:] }
        /// False for a full build: every bundle is read from its files, and stored.
        package var trusting = true
        /// The signatures of the racy bundles, whose loads `racyKeeps` holds until they settle.
        package var racy: [String: ContentDigest] = [:]
        package var racyKeeps: RacyKeeps?

        package init(folder: String, signatures: [String: ContentDigest], parts: @escaping @Sendable (String) -> [String: ContentDigest] = { _ in [:] },
                     trusting: Bool = true) {
            self.folder = folder
            self.signatures = signatures
            self.parts = parts
            self.trusting = trusting
        }
    }

    /// Why the cache could not be used as it was, in one line, for the build to tell.
    package enum Notice: Sendable, Equatable, CustomStringConvertible {
        case empty
        /// What differs from when the cache was made (`Key`).
        case otherKey([Key.Change])
        case damaged(bundle: String)

        public var description: String {
            switch self {
            case .empty: "no content cache yet: every bundle is read"
            case .otherKey(let changes):
                "the content cache was made " + changes.map(\.description).joined(separator: " and ") + ": every bundle is read again"
            case .damaged(let bundle): "the content cache's entry for '\(bundle)' was damaged: the bundle is read again"
            }
        }
    }

    /// One bundle as it was loaded, without its head and text. Diagnostics are few and rare, and
    /// their problems are enums with associated values, so they are kept as JSON inside.
    ///
    /// A file holds the entry's length (8 bytes, little-endian), the entry, the machine's head
    /// (`MachineHead`), then its text (`MachineText`). A build reads the entry of every bundle
    /// it vouches for, the head of the machines it asks more of than the entry tells
    /// (`MachineBrief`), and the text of those whose pages it renders.
    package struct Entry: Codable {
        package let format: String
        package let key: ContentDigest
        package let signature: ContentDigest
        /// The machine's slug and folder: what a build looks a machine up by without its head.
        package let slug: String
        package let folder: SourceFile
        package let brief: MachineBrief
        /// The digest and length of the machine's head as `BinaryEncoder` wrote it after the
        /// entry, read when first asked for (`MachineHeadStore`).
        package let head: ContentDigest
        package let headLength: Int
        package let text: ContentDigest
        package let diagnostics: Data
        /// The signature of each part folder the load read, where it was settled.
        package let parts: StoredPartSignatures
    }

    /// An entry's part signatures, read as they are stored and decoded only when a bundle's
    /// parts are taken one by one (`storedParts`): a lookup of an unchanged bundle, which the
    /// review and the load make of every machine, needs none (a String for every part of the catalog).
    package struct StoredPartSignatures: Codable {
        private let values: [PartSignature]?
        private let stored: [UInt8]

        init(_ values: [PartSignature]) {
            self.values = values
            stored = []
        }

        /// The bytes of an array of them as `BinaryEncoder` wrote it.
        init(stored: [UInt8]) {
            values = nil
            self.stored = stored
        }

        package init(from decoder: any Decoder) throws {
            values = try decoder.singleValueContainer().decode([PartSignature].self)
            stored = []
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(decoded ?? [])
        }

        /// Nil when the stored bytes do not decode whole.
        var decoded: [PartSignature]? {
            if let values { return values }
            return try? BinaryDecoder().read(PartSignatureList.self, from: stored).values
        }
    }

    package struct PartSignature: Codable, Equatable {
        package let slug: String
        package let signature: ContentDigest
    }

    /// The heads this process read or stored, by entry file: sync's review and the build after
    /// it, or serve's builds one after another, read each unchanged entry once and decode a head
    /// at most once. A head is used only for the key and signature it was stored under; the
    /// text stays on disk.
    private struct Remembered: Sendable {
        package let key: ContentDigest
        package let signature: ContentDigest
        package let slug: String
        package let folder: SourceFile
        package let head: MachineHeadStore
        package let diagnostics: [Diagnostic]
        package let text: ContentDigest
        /// The entry's and the head's length in the entry file: the text follows them.
        package let length: Int
    }

    private static let remembered = Locked<[String: Remembered]>([:])

    /// Forgets the heads this process decoded from `folder`'s entries, so the next lookup reads
    /// them as a new process would (a test that changes an entry behind the cache's back).
    package static func forgetDecoded(in folder: String) {
        remembered.withLock { $0 = $0.filter { !$0.key.hasPrefix(folder + "/") } }
    }

    private var keyFile: String { folder + "/key" }

    /// How much of an entry file a lookup reads at first: its length and entry (a few KB: the
    /// ids of the machine's comments and photos are the most of it).
    private static let firstRead = 16 << 10

    /// Opens the cache for `key`; a cache made for another key is emptied first.
    package static func open(_ folder: String, key parts: Key, counters: BuildCounters = .none) -> (ContentCache, Notice?) {
        let key = parts.digest
        let cache = ContentCache(folder: folder, key: key, counters: counters)
        let stored = FileManager.default.contents(atPath: cache.keyFile).map { String(decoding: $0, as: UTF8.self) }
        let expected = "\(format) \(key)\n"
        if let stored, stored.hasPrefix(expected) { return (cache, nil) }
        FileSystem.discard(folder)
        // The cache is a memo: if it cannot be made, every bundle is loaded from its files.
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? FileSystem.writeFile(Data((expected + parts.lines).utf8), to: cache.keyFile)
        guard let stored else { return (cache, .empty) }
        // A key file of another format, or with nothing changed that it records, cannot say what
        // changed: the bundles are read again without a word rather than with a guess.
        let changes = stored.split(separator: "\n", maxSplits: 1).dropFirst().first.flatMap { parts.changes(from: $0) } ?? []
        return (cache, changes.isEmpty ? nil : .otherKey(changes))
    }

    /// The machine and the diagnostics loading it gave, if the entry for `bundle` is current.
    /// Its text is decoded when first read; should it not match its digest then, `reload` reads
    /// it from the bundle's files.
    /// `folder`: the bundle's folder, which every path of the entry must lie in.
    package func lookup(_ bundle: String, folder bundleFolder: String, signature: ContentDigest, reload: @escaping @Sendable () -> Machine?)
        -> (value: (Machine, [Diagnostic])?, notice: Notice?) {
        let file = path(bundle)
        func text(after length: Int, digest: ContentDigest) -> MachineTextStore {
            self.text(in: file, after: length, digest: digest, reload: reload)
        }
        if let known = Self.remembered.withLock({ $0[file] }), known.key == key, known.signature == signature {
            return ((Machine(slug: known.slug, folder: known.folder, head: known.head, text: text(after: known.length, digest: known.text)),
                     known.diagnostics), nil)
        }
        // One read takes the length and, nearly always, the whole entry.
        guard let (prefix, size) = FileSystem.read(file, offset: 0, upTo: Self.firstRead) else { return (nil, nil) }
        guard let length = Self.headLength(of: prefix, fileSize: size),
              let bytes = 8 + length <= prefix.count ? prefix.subdata(in: 8..<8 + length) : FileSystem.read(file, offset: 8, upTo: length)?.bytes,
              bytes.count == length, let (entry, diagnostics) = Self.decode(head: bytes) else {
            return (nil, .damaged(bundle: bundle))
        }
        guard entry.key == key, entry.signature == signature else { return (nil, nil) }
        // The head is checked when decoded (`MachineHeadStore`); what the build knows a machine by, now.
        // The brief's cover is read without the head, so it is checked here as the head's paths are.
        guard entry.slug == bundle, entry.folder.absolutePath == bundleFolder, entry.headLength >= 0,
              entry.headLength <= size - 8 - length,
              entry.brief.cover.map({ MachineHead.isPlain($0.absolutePath, below: bundleFolder) }) ?? true
        else { return (nil, .damaged(bundle: bundle)) }
        let head = MachineHeadStore(read: Self.headReader(file, entry: bytes, headLength: entry.headLength), slug: entry.slug,
                                    folder: entry.folder, brief: entry.brief, counters: counters, reload: { reload()?.head })
        Self.remembered.withLock {
            $0[file] = Remembered(key: key, signature: signature, slug: entry.slug, folder: entry.folder, head: head,
                                  diagnostics: diagnostics, text: entry.text, length: length + entry.headLength)
        }
        return ((Machine(slug: entry.slug, folder: entry.folder, head: head, text: text(after: length + entry.headLength, digest: entry.text)),
                 diagnostics), nil)
    }

    /// Reads the head after `entry` in `file`, when the file still holds that entry: read with
    /// the entry again and compared, rather than checked against its digest (a SHA-256 of every
    /// head a build decodes showed in its profile), so that a head another build wrote since is
    /// never taken for this one. What a head names is checked as it is decoded.
    private static func headReader(_ file: String, entry: Data, headLength: Int) -> @Sendable () -> [UInt8]? {
        var hasher = Hasher()
        entry.withUnsafeBytes { hasher.combine(bytes: $0) }
        let entryHash = hasher.finalize()
        let length = entry.count
        return {
            guard let pieces = FileSystem.read(file, pieces: [(8, length), (8 + length, headLength)]) else { return nil }
            var again = Hasher()
            pieces[0].withUnsafeBytes { again.combine(bytes: $0) }
            return again.finalize() == entryHash ? pieces[1] : nil
        }
    }

    /// The text after an entry's head, read only when a page shows it: sync's review reads every
    /// head and no text.
    private func text(in file: String, after length: Int, digest: ContentDigest,
                      reload: @escaping @Sendable () -> Machine?) -> MachineTextStore {
        let counters = counters
        return MachineTextStore(read: {
            counters.count(.textsRead)
            return FileSystem.read(file, offset: 8 + length, upTo: .max)?.bytes
        }, digest: digest, reload: { reload()?.text.value })
    }

    /// The parts of `bundle`'s entry, stored under another signature, whose folders have the
    /// signature they had then (`current`, by part slug): a load of the changed bundle takes
    /// these instead of reading their files. Nil when the entry is missing, of another key, or
    /// does not decode whole.
    package func storedParts(_ bundle: String, folder bundleFolder: String, current: [String: ContentDigest]) -> StoredParts? {
        guard !current.isEmpty, let data = FileManager.default.contents(atPath: path(bundle)),
              let length = Self.headLength(of: data), let (entry, diagnostics) = Self.decode(head: data.subdata(in: 8..<8 + length)),
              entry.key == key, entry.headLength >= 0, entry.headLength <= data.count - 8 - length,
              case let headBytes = data.subdata(in: 8 + length..<8 + length + entry.headLength), ContentDigest(bytes: headBytes) == entry.head,
              // A head that does not decode is a miss: the bundle is loaded from its files.
              let head = try? BinaryDecoder().read(MachineHead.self, from: headBytes), head.lies(within: bundleFolder)
        else { return nil }
        let unchanged = Set((entry.parts.decoded ?? []).filter { current[$0.slug] == $0.signature }.map(\.slug))
        let textBytes = data.subdata(in: 8 + length + entry.headLength..<data.count)
        guard !unchanged.isEmpty, MachineTextStore.digest(of: textBytes) == entry.text,
              // An entry that does not decode is a miss: the bundle is loaded from its files.
              let text = try? BinaryDecoder().read(MachineText.self, from: textBytes), text.parts.count == head.parts.count
        else { return nil }
        var parts: [String: (Part, [Diagnostic])] = [:]
        let folder = head.folder.displayPath + "/parts/"
        for (outline, partText) in zip(head.parts, text.parts) where unchanged.contains(outline.slug) {
            let part = Part(slug: outline.slug, source: outline.source, name: outline.name, layer: outline.layer,
                            specs: partText.specs, tags: outline.tags, description: partText.description,
                            community: Community(comments: partText.comments, photos: outline.photos))
            let own = folder + outline.slug
            guard part.lies(within: bundleFolder + "/parts/" + outline.slug) else { return nil }
            parts[outline.slug] = (part, diagnostics.filter { $0.location.path == own || $0.location.path.hasPrefix(own + "/") })
        }
        return StoredParts(canvas: head.canvas, parts: parts)
    }

    /// Parts a changed bundle's load can take as they were stored (`storedParts`).
    package struct StoredParts: Sendable {
        /// A part's layer is sized by the canvas when it has no offset: the parts are only
        /// good for a machine.yaml with this canvas.
        package let canvas: PixelSize
        package let parts: [String: (Part, [Diagnostic])]
    }

    /// Keeps a loaded bundle. Losing an entry costs only speed, so it is written without fsync.
    /// Returns the machine with its text left in the entry, decoded when a page shows it (and
    /// forgotten again, `RecentlyDecoded`), so that a build that reads every bundle does not
    /// hold every text; nil when it could not be stored. `reload` reads the bundle's files.
    @discardableResult
    package func store(_ bundle: String, signature: ContentDigest, parts: [String: ContentDigest], machine: Machine,
                       diagnostics: [Diagnostic], reload: @escaping @Sendable () -> Machine? = { nil }) -> Machine? {
        let partSignatures = machine.outlines.compactMap { part in
            parts[part.slug].map { PartSignature(slug: part.slug, signature: $0) }
        }
        // A machine that cannot be encoded is not remembered: the next build loads it again.
        let head = machine.head
        guard let problems = try? JSONEncoder().encode(diagnostics), let (text, digest) = MachineTextStore.encode(machine.text.value),
              let headBytes = try? BinaryEncoder().encode(head),  // as the text: unencodable, it is not kept
              let entry = try? BinaryEncoder().encode(Entry(format: Self.format, key: key, signature: signature,
                                                            slug: machine.slug, folder: machine.folder, brief: machine.brief,
                                                            head: ContentDigest(bytes: headBytes), headLength: headBytes.count,
                                                            text: digest, diagnostics: problems,
                                                            parts: StoredPartSignatures(partSignatures)))
        else { return nil }
        var data = Data(capacity: 8 + entry.count + headBytes.count + text.count)
        withUnsafeBytes(of: UInt64(entry.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(entry)
        data.append(headBytes)
        data.append(text)
        let file = path(bundle)
        guard FileSystem.replaceFile(data, at: file) else { return nil }
        Self.remembered.withLock {
            $0[file] = Remembered(key: key, signature: signature, slug: machine.slug, folder: machine.folder,
                                  head: MachineHeadStore(head), diagnostics: diagnostics, text: digest,
                                  length: entry.count + headBytes.count)
        }
        return Machine(head: head, text: self.text(in: file, after: entry.count + headBytes.count, digest: digest, reload: reload))
    }

    private static let noDiagnostics = Data("[]".utf8)

    /// An entry's head, from its bytes: nil for bytes of another format or damaged ones (`make
    /// fuzz` feeds it arbitrary bytes, as a damaged or forged cache would).
    package static func decode(head data: Data) -> (Entry, [Diagnostic])? {
        guard let entry = try? BinaryDecoder().read(Entry.self, from: data), entry.format == Self.format,
              // Most entries have none: a JSONDecoder each was a share of reading every entry.
              let diagnostics = entry.diagnostics == Self.noDiagnostics ? []
                  : try? JSONDecoder().decode([Diagnostic].self, from: entry.diagnostics)
        else { return nil }
        return (entry, diagnostics)
    }

    /// The length of the head, from an entry file's first 8 bytes (little-endian), when the file
    /// holds that much after them. Read as unsigned: read as an `Int`, a damaged length with its
    /// top bit set was negative, passed the check and crashed every build until the cache was deleted.
    package static func headLength(of data: Data) -> Int? { headLength(of: data, fileSize: data.count) }

    /// The same from the file's first bytes (`prefix`) and its size.
    package static func headLength(of prefix: Data, fileSize: Int) -> Int? {
        guard prefix.count >= 8, fileSize >= 8 else { return nil }
        let length = prefix.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        return length <= UInt64(fileSize - 8) ? Int(length) : nil
    }

    /// Drops the entries of bundles that are gone, and temporary files a kill left (the site
    /// index the build keeps beside the entries stays).
    package func prune(keeping bundles: Set<String>) {
        let prefix = folder + "/"
        Self.remembered.withLock { remembered in
            remembered = remembered.filter { file, _ in
                !file.hasPrefix(prefix) || bundles.contains(String(file.dropFirst(prefix.count).dropLast(".bundle".count)))
            }
        }
        for name in FileSystem.names(in: folder) where name != "key" && name != CacheLayout.siteIndexName {
            if name.hasPrefix(".") || !name.hasSuffix(".bundle") || !bundles.contains(String(name.dropLast(7))) {
                // A stale entry that stays costs only space; it is tried again next build.
                try? FileSystem.unlinkIfPresent(folder + "/" + name)
            }
        }
    }

    private func path(_ bundle: String) -> String { folder + "/" + bundle + ".bundle" }
}
