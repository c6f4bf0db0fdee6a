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
    /// where a folder whose signature held has the entries it had: a one-comment sync costs
    /// what the comment touched, not what the catalog holds.
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

    /// The entries of the stored form's `lines`, parsed on all cores and never split into
    /// Strings: every build `serve` makes after an edit reads them. Nil when a line does not
    /// parse.
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
        var update = SnapshotUpdate(roots: roots, racyWindow: racyWindow)
        // Roots and paths may be written relative to the working folder or with "./" in them.
        for path in Set(paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }) {
            guard update.look(at: path) else { return nil }
        }
        guard var updated = update.kept(entries) else { return nil }
        // The entries kept were checked when they were taken.
        guard !update.fresh.keys.contains(where: { $0.path.utf8.contains(UInt8(ascii: "\n")) }) else { return nil }
        updated += update.fresh.values
        var snapshot = InputSnapshot(key: key, roots: roots, entries: updated)
        if !update.everyBundle, var signatures {
            for (bundle, signature) in Self.signatures(of: update.touched, in: updated) { signatures.set(bundle, signature) }
            snapshot.signatures = signatures
        }
        return snapshot
    }

    /// The touched bundles' signatures, from their entries now; a bundle that is gone has none.
    private static func signatures(of touched: Set<String>, in entries: [Entry]) -> [String: (ContentDigest, Bool)?] {
        var entriesByBundle: [String: [Entry]] = [:]
        // A bundle's entries lie together: a run of them is named and looked up once (a String
        // made and hashed for each of every bundle's entries showed in profiles).
        var current: Substring = "", name = "", isTouched = false
        for entry in entries where entry.root == 0 {
            guard let bundle = bundle(of: entry.path) else { continue }
            if bundle != current {
                current = bundle
                name = String(bundle)
                isTouched = touched.contains(name)
            }
            if isTouched { entriesByBundle[name, default: []].append(entry) }
        }
        return Dictionary(uniqueKeysWithValues: touched.map { ($0, entriesByBundle[$0].map(signature(of:))) })
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
