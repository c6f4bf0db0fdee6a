import Dispatch
import Foundation
import TeardownBase

/// What every input of a build looked like before the build read it: the `stat` signature of
/// each file and folder under content/, the site's Themes/ and the built-in theme. When nothing
/// differs on the next build, and the published tree is still the one that build wrote, the
/// output is up to date without loading a single file: a few thousand `stat` calls instead of
/// parsing the whole site.
///
/// A folder's signature changes when an entry is added, removed or renamed in it, so new files
/// are noticed without listing folders again. An entry changed so shortly before the snapshot
/// that a later change could keep its timestamps (the racy case git also guards against) is
/// recorded with a digest of its content, which the check compares too.
package struct InputSnapshot: Sendable {
    package static let header = "teardown-inputs 1"
    /// The signature recorded for a root that does not exist.
    package static let missing: UInt64 = 0

    /// Entries changed this recently, in seconds, are checked by content as well, on a file
    /// system whose stamps are not known to follow this machine's clock closely.
    package static let racyWindow = 2.0
    /// The same on one that stamps by the kernel's clock (`FileSystem.stampsByKernelClock`): a
    /// tick and a half. Two seconds there made a sync that followed another within them plan,
    /// load and look up the images of the machine the one before changed, all over again.
    package static let tickWindow = 0.025

    /// The racy window of inputs under `roots`: the widest of those that exist.
    package static func racyWindow(for roots: [String]) -> Double {
        roots.filter(FileSystem.exists).map { FileSystem.stampsByKernelClock($0) ? tickWindow : racyWindow }.max() ?? racyWindow
    }

    package struct Entry: Sendable {
        // The root's number last and in a byte: 48 bytes an entry instead of 56, and a large
        // catalog's snapshot has tens of thousands, held by `sync --follow` between rounds.
        package let path: String
        package let signature: UInt64
        /// For racy entries: the digest of the file's bytes or of the folder's entry names.
        package let content: ContentDigest?
        private let rootNumber: UInt8

        /// The root's position in the snapshot's roots (three at most).
        package var root: Int { Int(rootNumber) }

        package init(root: Int, path: String, signature: UInt64, content: ContentDigest?) {
            self.path = path
            self.signature = signature
            self.content = content
            rootNumber = UInt8(root)
        }
    }

    /// The build's settings: the same inputs under other settings give another site.
    package let key: ContentDigest
    package let roots: [String]
    let storage: SnapshotEntries
    /// The bundles' signatures, when the walk or update that made the snapshot worked them
    /// out on the way (`bundleSignatures()` otherwise).
    package var signatures: BundleSignatures? = nil

    package init(key: ContentDigest, roots: [String], entries: [Entry], signatures: BundleSignatures? = nil) {
        self.key = key
        self.roots = roots
        storage = SnapshotEntries(entries: entries, rootCount: roots.count)
        self.signatures = signatures
    }

    /// A snapshot of the entries in stored-form `lines`, which must all parse, and of the
    /// bundles `left` in the build store.
    package init(key: ContentDigest, roots: [String], lines: [UInt8], left: SnapshotLeftRows? = nil) {
        self.key = key
        self.roots = roots
        storage = SnapshotEntries(lines: lines, rootCount: roots.count, left: left)
    }

    /// Pieces of lines, some shared with the snapshot updated (`updating`).
    init(key: ContentDigest, roots: [String], pieces: [SnapshotEntries.Piece], left: SnapshotLeftRows?) {
        self.key = key
        self.roots = roots
        storage = SnapshotEntries(pieces: pieces, rootCount: roots.count, left: left)
    }

    /// Every entry, parsed from the stored form's lines when the snapshot was read as them.
    package var entries: [Entry] { storage.entries }
    /// The entries in the stored form, a line each.
    package var lines: [UInt8] { storage.allLines }
    /// The bundles whose lines were left in the build store by the check that made this
    /// snapshot (their rows are as stored), with their signatures.
    package var leftInStore: [String: ContentDigest] { storage.left?.signatures ?? [:] }

    /// Records the inputs under `roots`; nil when a root holds something a walk cannot vouch for.
    package static func take(roots: [String], key: ContentDigest, racyWindow: Double? = nil,
                             counters: BuildCounters = .none) -> InputSnapshot? {
        counters.count(.inputWalks)
        let racyWindow = racyWindow ?? Self.racyWindow(for: roots)
        let started = Date().timeIntervalSince1970
        func entry(_ index: Int, _ path: String, _ status: FileSystem.Status) -> Entry {
            let racy = status.changed > started - racyWindow
            return Entry(root: index, path: path, signature: status.signature,
                         content: racy ? contentDigest(roots[index], path, isDirectory: status.isDirectory) : nil)
        }
        var entries: [Entry] = []
        var signatures = BundleSignatures(all: [:], racy: [])
        for (index, root) in roots.enumerated() {
            guard FileSystem.exists(root) else {
                // A root that appears later (a site's first Themes/ folder) must count as a change.
                entries.append(Entry(root: index, path: "", signature: missing, content: nil))
                continue
            }
            // The top two levels (content/machines/<machine>) are walked here, the bundles below
            // them on all cores: a large catalog has tens of thousands of entries to stat.
            // A bundle's signature is taken there too, while its entries are at hand.
            var bundles: [Entry] = []
            let complete = FileSystem.walk(root, descend: { $0.split(separator: "/").count < 2 }) { path, status in
                let found = entry(index, path, status)
                entries.append(found)
                guard path.split(separator: "/").count == 2 else { return }
                if status.isDirectory {
                    bundles.append(found)
                } else if index == 0, let bundle = bundle(of: path) {
                    signatures.set(String(bundle), signature(of: [found]))
                }
            }
            guard complete else { return nil }
            let below = ParallelMap.map(bundles) { folder -> (entries: [Entry], signature: (ContentDigest, Bool)?)? in
                var found: [Entry] = []
                let complete = FileSystem.walk(root + "/" + folder.path) { path, status in
                    if !path.isEmpty { found.append(entry(index, folder.path + "/" + path, status)) }
                }
                guard complete else { return nil }
                return (found, index == 0 && bundle(of: folder.path) != nil ? signature(of: found + [folder]) : nil)
            }
            for (folder, part) in zip(bundles, below) {
                guard let part else { return nil }
                entries += part.entries
                if let signature = part.signature, let bundle = bundle(of: folder.path) { signatures.set(String(bundle), signature) }
            }
        }
        guard !entries.contains(where: { $0.path.utf8.contains(UInt8(ascii: "\n")) }) else { return nil }
        return InputSnapshot(key: key, roots: roots, entries: entries, signatures: signatures)
    }

    /// For each bundle folder of content/machines/, a digest of what the snapshot saw of it:
    /// every entry's path and `stat` signature. Equal digests mean the loader would read the
    /// same files. The digest leaves out racy entries' content digests, so that it does not
    /// change when an entry merely ages out of the racy window (a download keyed by it would
    /// be made again for nothing). `racy` names the bundles holding a racy entry, which the
    /// content cache must not trust: `stat` cannot vouch for them yet.
    package func bundleSignatures() -> BundleSignatures {
        signatures ?? signatures(taking: [:])
    }

    /// The entries below one bundle's parts/ folder, parsed from that bundle's lines alone.
    package func partEntries(ofBundle bundle: String) -> [Entry] {
        let prefix = "machines/" + bundle + "/parts/"
        return storage.entries(of: storage.pieces(of: bundle)).filter { ByteSearch.hasPrefix($0.path, prefix) }
    }

    /// The lines of each bundle (by name) and of no bundle (nil), with their count, for the rows
    /// of the build store that keep them (`BuildStore.storeInputs`): a group at a time, so a
    /// build that stores every bundle does not hold a second copy of the whole snapshot.
    /// The bundles left in the store (`leftInStore`) are not among them: their rows are there.
    package func eachLineGroup(_ wanted: (String?) -> Bool, _ body: (String?, Data, Int) throws -> Void) rethrows {
        let pieces = storage.pieces
        var order: [String?] = [], members: [String?: [Int]] = [:]
        for (position, piece) in pieces.enumerated() where wanted(piece.run.bundle) {
            if members[piece.run.bundle] == nil { order.append(piece.run.bundle) }
            members[piece.run.bundle, default: []].append(position)
        }
        for bundle in order {
            var lines = Data(), count = 0
            for position in members[bundle] ?? [] {
                let piece = pieces[position]
                lines.append(contentsOf: piece.lines)
                count += ByteSearch.count(UInt8(ascii: "\n"), in: piece.bytes, piece.run.range)
            }
            try body(bundle, lines, count)
        }
    }

    /// For each part folder among `entries` (those below one bundle's parts/ folder), a digest of
    /// what the snapshot saw of it, as for a bundle; a part with a racy entry is left out. A
    /// bundle whose signature changed reads again only the parts whose signature did
    /// (`ContentCache.Use.parts`), so one comment does not read every part of its machine again.
    package static func partSignatures(of entries: [Entry], bundle: String) -> [String: ContentDigest] {
        let prefix = "machines/" + bundle + "/parts/"
        var byPart: [String: [Entry]] = [:]
        for entry in entries where entry.path.hasPrefix(prefix) {
            let rest = entry.path.utf8.dropFirst(prefix.utf8.count)
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            guard rest.startIndex != end, let part = String(rest[rest.startIndex..<end]) else { continue }
            byPart[part, default: []].append(entry)
        }
        var signatures: [String: ContentDigest] = [:]
        for (part, entries) in byPart {
            let (signature, racy) = signature(of: entries)
            if !racy { signatures[part] = signature }
        }
        return signatures
    }

    /// Each bundle's part signatures (`partSignatures(of:bundle:)`), for a load that asks for
    /// any number of them, each from its bundle's lines alone.
    package final class PartSignatures: Sendable {
        private let snapshot: InputSnapshot?

        package init(_ snapshot: InputSnapshot?) { self.snapshot = snapshot }

        package func callAsFunction(_ bundle: String) -> [String: ContentDigest] {
            guard let snapshot else { return [:] }
            return InputSnapshot.partSignatures(of: snapshot.partEntries(ofBundle: bundle), bundle: bundle)
        }
    }

    /// The bundle a path of content/ belongs to: the name below machines/, if any.
    package static func bundle(of path: String) -> Substring? {
        // Called for every entry of a snapshot being updated: a split allocated an array each
        // time, and String's `hasPrefix`, which minds character boundaries, was most of the rest.
        guard ByteSearch.hasPrefix(path, "machines/") else { return nil }
        let rest = path.utf8.dropFirst("machines/".count)
        let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        return rest.startIndex == end ? nil : Substring(path[rest.startIndex..<end])
    }

    /// One bundle's signature from all its entries, in any order, and whether one is racy.
    package static func signature(of entries: [Entry]) -> (ContentDigest, Bool) {
        var fingerprint = Fingerprint()
        var racy = false
        for entry in entries.sorted(by: { $0.path < $1.path }) {
            fingerprint.add(entry.path)
            fingerprint.add(ContentDigest(high: entry.signature, low: 0))
            if entry.content != nil { racy = true }
        }
        return (fingerprint.digest, racy)
    }

    package struct BundleSignatures: Sendable {
        package var all: [String: ContentDigest]
        package var racy: Set<String>

        /// The signatures the content cache may trust: of bundles without a racy entry.
        package var settled: [String: ContentDigest] { all.filter { !racy.contains($0.key) } }

        package mutating func set(_ bundle: String, _ signature: (ContentDigest, Bool)?) {
            all[bundle] = signature?.0
            if signature?.1 == true { racy.insert(bundle) } else { racy.remove(bundle) }
        }
    }

    /// The bytes of a file or the sorted entry names of a folder.
    package static func contentDigest(_ root: String, _ path: String, isDirectory: Bool) -> ContentDigest {
        let full = path.isEmpty ? root : root + "/" + path
        if isDirectory {
            var fingerprint = Fingerprint()
            for name in FileSystem.names(in: full).sorted() {
                fingerprint.add(name)
            }
            return fingerprint.digest
        }
        return ContentDigest(SHA256.hash(data: FileManager.default.contents(atPath: full) ?? Data()))
    }

    // MARK: The stored form
}

