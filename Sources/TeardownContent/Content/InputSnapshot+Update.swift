import Foundation
import TeardownBase

/// A snapshot brought up to date by the paths known to have changed, instead of by a walk:
/// `teardown sync` knows the files it filed, `teardown serve` what inotify reported.
extension InputSnapshot {
    /// The snapshot a build stored at `path`, as it was written (nothing is checked against
    /// the disk); nil when it is missing, cut short, or for other roots or settings.
    package static func stored(at path: String, roots: [String], key: ContentDigest) -> (InputSnapshot, Record)? {
        FileManager.default.contents(atPath: path).flatMap { stored([UInt8]($0), roots: roots, key: key) }
    }

    /// `stored` from the stored form's bytes.
    package static func stored(_ bytes: [UInt8], roots: [String], key: ContentDigest) -> (InputSnapshot, Record)? {
        guard let record = read(bytes, roots: roots, key: key, tree: { _ in true }, settledBefore: nil)?.record else { return nil }
        guard let lines = entryLines(bytes), let entries = entries(in: bytes, lines, roots: roots) else { return nil }
        return (InputSnapshot(key: key, roots: roots, entries: entries), record)
    }

    /// The inputs as they are now, from the stored form `bytes` of the last build's snapshot
    /// and its settled bundles' `signatures` (`BuildStore.storedInputs`): every entry is
    /// checked against the disk, a `stat` each on all cores, and only the paths that differ
    /// are looked at again (`updating`). Nil when the stored form is missing, damaged or of
    /// other roots or settings: the caller then walks.
    ///
    /// This is what a walk (`take`) finds, for less: a walk also opens and lists every folder,
    /// where a folder whose signature held has the entries it had. At 10,000 parts the walk
    /// was a third of a one-comment sync.
    ///
    /// `unchanged` is the stored record when every entry is as stored, content digests included
    /// (none settled since), so that the stored snapshot stands as it is.
    package static func current(stored bytes: [UInt8], signatures stored: [String: ContentDigest], roots: [String],
                        key: ContentDigest, racyWindow: Double = racyWindow) -> (snapshot: InputSnapshot, unchanged: Record?)? {
        // Checked and parsed in one pass on all cores; entries that settled lose their content
        // digest, as `check` refreshes them.
        guard let record = read(bytes, roots: roots, key: key, tree: { _ in true }, settledBefore: nil)?.record,
              let lines = entryLines(bytes),
              let (settled, changed, entries) = verify(bytes, lines, roots: roots,
                                                       settledBefore: Date().timeIntervalSince1970 - racyWindow, collecting: true)
        else { return nil }
        var snapshot = InputSnapshot(key: key, roots: roots, entries: entries)
        snapshot.signatures = snapshot.signatures(taking: stored)
        if changed.isEmpty { return (snapshot, settled.isEmpty ? record : nil) }
        return snapshot.updating(changed, racyWindow: racyWindow).map { ($0, nil) }
    }

    /// The bundles' signatures, taking those of `stored` rows: only bundles without one (racy
    /// when stored, or new; every bundle when `stored` is empty) are worked out from their
    /// entries, in one pass over the entries.
    package func signatures(taking stored: [String: ContentDigest]) -> BundleSignatures {
        var entriesByBundle: [String: [Entry]] = [:]
        var signatures = BundleSignatures(all: [:], racy: [])
        // A bundle's entries mostly lie together (a walk's, or a stored row's), so a bundle is
        // named and looked up once a run of entries, not once an entry.
        var current: Substring = "", name = "", run: [Entry] = [], unsettled = false
        func endRun() {
            if unsettled, !run.isEmpty { entriesByBundle[name, default: []] += run }
            run.removeAll(keepingCapacity: true)
        }
        for entry in entries where entry.root == 0 {
            guard let bundle = Self.bundle(of: entry.path) else { continue }
            if bundle != current {
                endRun()
                current = bundle
                name = String(bundle)
                if let signature = stored[name] {
                    signatures.all[name] = signature
                    unsettled = false
                } else {
                    unsettled = true
                }
            }
            if unsettled { run.append(entry) }
        }
        endRun()
        for (bundle, entries) in entriesByBundle { signatures.set(bundle, Self.signature(of: entries)) }
        return signatures
    }

    /// The entries of the stored form's `lines`, parsed on all cores: split into Strings line
    /// by line, reading a 10,000-part snapshot took 0.4 s of every build `serve` made after an
    /// edit. Nil when a line does not parse.
    package static func entries(in bytes: [UInt8], _ lines: Range<Int>, roots: [String]) -> [Entry]? {
        let parsed = ParallelMap.map(lineChunks(bytes, lines)) { range -> [Entry]? in
            var entries: [Entry] = []
            let complete = SnapshotLine.each(in: bytes, range, rootCount: roots.count) { line in
                entries.append(Entry(root: line.root, path: String(decoding: line.relative, as: UTF8.self),
                                     signature: line.signature, content: line.content))
            }
            return complete ? entries : nil
        }
        var entries: [Entry] = []
        entries.reserveCapacity(parsed.reduce(0) { $0 + ($1?.count ?? 0) })
        for chunk in parsed {
            guard let chunk else { return nil }
            entries += chunk
        }
        return entries
    }

    /// This snapshot with `paths` (absolute) looked at again: each one, the folders above it
    /// up to its root, and everything below it when it is a folder. A path that is gone takes
    /// what was below it along. Paths outside the roots, and hidden ones, are not inputs.
    /// Nil when a path holds something a walk could not vouch for.
    ///
    /// Entries the paths do not reach are kept as they are, in one pass: a sync files a comment
    /// or two into a snapshot of tens of thousands of entries. So are the bundles' signatures,
    /// but for the bundles the paths reach.
    package func updating(_ paths: [String], racyWindow: Double = racyWindow) -> InputSnapshot? {
        let started = Date().timeIntervalSince1970
        struct Located: Hashable {
            let root: Int
            let path: String
        }
        var fresh: [Located: Entry] = [:]
        // Per root, the paths taken anew with all below them.
        var retaken: [Int: [String]] = [:]
        var touched = Set<String>(), everyBundle = false
        func record(_ root: Int, _ relative: String, _ status: FileSystem.Status) {
            let racy = status.changed > started - racyWindow
            fresh[Located(root: root, path: relative)] = Entry(
                root: root, path: relative, signature: status.signature,
                content: racy ? Self.contentDigest(roots[root], relative, isDirectory: status.isDirectory) : nil)
        }
        // Roots and paths may be written relative to the working folder or with "./" in them.
        let absoluteRoots = roots.map { $0.isEmpty ? "" : URL(fileURLWithPath: $0).standardizedFileURL.path }
        for path in Set(paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }) {
            guard let root = absoluteRoots.indices.first(where: {
                !absoluteRoots[$0].isEmpty && (path == absoluteRoots[$0] || path.hasPrefix(absoluteRoots[$0] + "/"))
            }) else { continue }
            let relative = path == absoluteRoots[root] ? "" : String(path.dropFirst(absoluteRoots[root].count + 1))
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            if root == 0 {
                // Above the bundles (the content folder, machines/), any of them may have changed.
                if let bundle = Self.bundle(of: relative) {
                    touched.insert(String(bundle))
                } else if relative.isEmpty || relative == "machines" {
                    everyBundle = true
                }
            }
            // The folders above: an entry added or removed changes its folder's signature.
            var folder = relative
            while !folder.isEmpty {
                folder = (folder as NSString).deletingLastPathComponent
                guard let status = FileSystem.status(folder.isEmpty ? roots[root] : roots[root] + "/" + folder) else {
                    // A folder removed with the path: it goes, with all that was below it. (A
                    // removed bundle made every sync and build after it walk the whole site.)
                    if folder.isEmpty { return nil }
                    retaken[root, default: []].append(folder)
                    continue
                }
                record(root, folder, status)
            }
            // The path itself, and below it, anew.
            retaken[root, default: []].append(relative)
            guard FileSystem.exists(path) else { continue }
            let prefix = relative.isEmpty ? "" : relative + "/"
            let complete = FileSystem.walk(path) { below, status in
                record(root, below.isEmpty ? relative : prefix + below, status)
            }
            if !complete {
                guard let status = FileSystem.status(path), !status.isDirectory else { return nil }
                record(root, relative, status)
            }
        }
        // A few paths (a sync's, an edit's) are compared with each entry; many (a check after a
        // branch was checked out) are looked up by each entry's path and the folders above it,
        // so that no entry is compared with every path. Hashing every entry's path cost a
        // one-file edit about 70 ms at 10,000 parts; comparing it with a few paths, next to nothing.
        let below = retaken.mapValues { $0.map { $0.isEmpty ? "" : $0 + "/" } }
        let retakenPaths = retaken.mapValues { Set($0.map { Substring($0) }) }
        func isRetaken(_ entry: Entry) -> Bool {
            guard let list = retaken[entry.root], let paths = retakenPaths[entry.root], let prefixes = below[entry.root]
            else { return false }
            // Prefixes compared as bytes: String's `hasPrefix` checks character boundaries, and entries
            // longer than a filed comment's path (most of a catalog's) were all compared with it.
            if list.count <= 16 {
                return list.contains(entry.path) || prefixes.contains { ByteSearch.hasPrefix(entry.path, $0) }
            }
            if paths.contains("") || paths.contains(Substring(entry.path)) { return true }
            var slash = entry.path.firstIndex(of: "/")
            while let found = slash {
                if paths.contains(entry.path[..<found]) { return true }
                slash = entry.path[entry.path.index(after: found)...].firstIndex(of: "/")
            }
            return false
        }
        // Most entries are neither taken anew nor fresh: they are told apart by their paths'
        // lengths before any path is hashed (a hash of every entry's path was most of applying
        // one filed comment to the walk of 10,000 parts).
        // (Flags indexed by length, and filters by root in an array: even an Int's hash per entry showed.)
        func flags(_ lengths: some Sequence<Int>) -> [Bool] {
            var flags = [Bool](repeating: false, count: (lengths.max() ?? 0) + 1)
            for length in lengths { flags[length] = true }
            return flags
        }
        let freshLengths = flags(fresh.keys.map { $0.path.utf8.count })
        let filters = roots.indices.map { root -> (lengths: [Bool], shortestBelow: Int, many: Bool)? in
            guard let list = retaken[root] else { return nil }
            return (flags(list.map(\.utf8.count)), below[root]?.map(\.utf8.count).min() ?? .max, list.count > 16)
        }
        var updated: [Entry] = []
        updated.reserveCapacity(entries.count + fresh.count)
        for entry in entries {
            let length = entry.path.utf8.count
            if let filter = filters[entry.root],
               filter.many || length >= filter.shortestBelow || (length < filter.lengths.count && filter.lengths[length]),
               isRetaken(entry) {
                continue
            }
            guard length >= freshLengths.count || !freshLengths[length]
                || fresh[Located(root: entry.root, path: entry.path)] == nil else { continue }
            guard let content = entry.content else {
                updated.append(entry)
                continue
            }
            // Racy entries that have left the window keep their signature alone (see `unchanged(at:)`):
            // in a long serve session they would otherwise stay racy, and their bundles would never
            // be taken from the content cache. One that changed unreported makes the walk necessary.
            let full = entry.path.isEmpty ? roots[entry.root] : roots[entry.root] + "/" + entry.path
            guard let status = FileSystem.status(full), status.signature == entry.signature else { return nil }
            let settled = status.changed < started - racyWindow
            updated.append(Entry(root: entry.root, path: entry.path, signature: entry.signature, content: settled ? nil : content))
            if settled, entry.root == 0, let bundle = Self.bundle(of: entry.path) { touched.insert(String(bundle)) }
        }
        // The entries kept were checked when they were taken.
        guard !fresh.keys.contains(where: { $0.path.utf8.contains(UInt8(ascii: "\n")) }) else { return nil }
        updated += fresh.values
        var snapshot = InputSnapshot(key: key, roots: roots, entries: updated)
        if !everyBundle, var signatures {
            // The touched bundles' signatures, from their entries now; a bundle that is gone has none.
            var entriesByBundle: [String: [Entry]] = [:]
            // A bundle's entries lie together: a run of them is named and looked up once (a
            // String made and hashed for each of every bundle's entries was a third of applying
            // one filed comment at 10,000 parts).
            var current: Substring = "", name = "", isTouched = false
            for entry in updated where entry.root == 0 {
                guard let bundle = Self.bundle(of: entry.path) else { continue }
                if bundle != current {
                    current = bundle
                    name = String(bundle)
                    isTouched = touched.contains(name)
                }
                if isTouched { entriesByBundle[name, default: []].append(entry) }
            }
            for bundle in touched { signatures.set(bundle, entriesByBundle[bundle].map(Self.signature(of:))) }
            snapshot.signatures = signatures
        }
        return snapshot
    }

    /// Whether both record the same entries, in any order.
    package func sameEntries(as other: InputSnapshot) -> Bool {
        guard roots == other.roots, entries.count == other.entries.count else { return false }
        func index(_ snapshot: InputSnapshot) -> [String: (UInt64, ContentDigest?)] {
            Dictionary(snapshot.entries.map { ("\($0.root)/\($0.path)", ($0.signature, $0.content)) }, uniquingKeysWith: { first, _ in first })
        }
        let mine = index(self), theirs = index(other)
        return mine.count == theirs.count && mine.allSatisfy { key, value in
            theirs[key].map { $0.0 == value.0 && $0.1 == value.1 } ?? false
        }
    }
}
