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
        guard let record = read(bytes, roots: roots, key: key, tree: { _ in true }, settledBefore: nil)?.record,
              let lines = entryLines(bytes), SnapshotLine.each(in: bytes, lines, rootCount: roots.count, { _ in })
        else { return nil }
        return (InputSnapshot(key: key, roots: roots, lines: Array(bytes[lines])), record)
    }

    /// The bundles' signatures, taking those of `stored` rows: only bundles without one (racy
    /// when stored, or new; every bundle when `stored` is empty) are worked out from their
    /// entries, in one pass over the entries.
    package func signatures(taking stored: [String: ContentDigest]) -> BundleSignatures {
        var signatures = BundleSignatures(all: storage.left?.signatures ?? [:], racy: [])
        var unsettled: [String: [Entry]] = [:]
        // Only the lines of bundles without a stored signature are parsed.
        for piece in storage.pieces {
            guard let name = piece.run.bundle else { continue }
            if let signature = stored[name] {
                signatures.all[name] = signature
            } else {
                unsettled[name, default: []] += storage.entries(of: [piece])
            }
        }
        for (bundle, entries) in unsettled { signatures.set(bundle, Self.signature(of: entries)) }
        return signatures
    }

    /// The entries of the stored form's `lines`, parsed on all cores without splitting the
    /// lines into Strings, for a snapshot asked for all its entries (`SnapshotEntries`). Nil
    /// when a line does not parse.
    package static func entries(in bytes: [UInt8], _ lines: Range<Int>, rootCount: Int) -> [Entry]? {
        let parsed = ParallelMap.map(lineChunks(bytes, lines)) { range -> [Entry]? in
            var entries: [Entry] = []
            let complete = SnapshotLine.each(in: bytes, range, rootCount: rootCount) { entries.append($0.entry()) }
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
    package func updating(_ paths: [String], racyWindow: Double? = nil) -> InputSnapshot? {
        var update = SnapshotUpdate(roots: roots, racyWindow: racyWindow ?? Self.racyWindow(for: roots))
        // Roots and paths may be written relative to the working folder or with "./" in them.
        for path in Set(paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }) {
            guard update.look(at: path) else { return nil }
        }
        // The entries kept were checked when they were taken.
        guard !update.fresh.keys.contains(where: { $0.path.utf8.contains(UInt8(ascii: "\n")) }) else { return nil }
        // Bundles left in the store that the paths reach are read back to be updated; when a
        // path above the bundles was taken anew, so was every bundle, and none stays left.
        var pieces = storage.pieces, left = storage.left
        if let stored = left {
            let reached = update.everyBundle ? [] : update.touched.filter { stored.signatures[$0] != nil }
            for bundle in reached.sorted() {
                guard let piece = storage.fetched(bundle) else { return nil }
                pieces.append(piece)
            }
            left = update.everyBundle ? nil : stored.removing(reached)
        }
        guard case (let carried, var written, var runs)? = update.kept(pieces, rootCount: roots.count) else { return nil }
        let freshStart = written.count
        written += Self.lines(update.fresh.values)
        runs += SnapshotLineIndex.runs(of: written, in: freshStart..<written.count)
        var snapshot = InputSnapshot(key: key, roots: roots,
                                     pieces: carried + runs.map { SnapshotEntries.Piece(bytes: written, run: $0) }, left: left)
        // Each update of a resident publisher's snapshot writes its touched bundles into an
        // array of their own; past a few dozen, they are laid end to end in one again.
        if snapshot.storage.bufferCount > 32 {
            snapshot = InputSnapshot(key: key, roots: roots, lines: snapshot.storage.lines, left: left)
        }
        if !update.everyBundle, var signatures {
            for (bundle, signature) in snapshot.signatures(of: update.touched) { signatures.set(bundle, signature) }
            snapshot.signatures = signatures
        }
        return snapshot
    }

    /// The touched bundles' signatures, from their entries now; a bundle that is gone has none.
    private func signatures(of touched: Set<String>) -> [String: (ContentDigest, Bool)?] {
        Dictionary(uniqueKeysWithValues: touched.map { bundle in
            let pieces = storage.pieces(of: bundle)
            return (bundle, pieces.isEmpty ? nil : Self.signature(of: storage.entries(of: pieces)))
        })
    }

    /// Whether both record the same entries, in any order.
    package func sameEntries(as other: InputSnapshot) -> Bool {
        guard roots == other.roots else { return false }
        // Bundles both left in the store with one signature are the same rows: only the rest is
        // compared, so an update that reached one bundle does not read every other back.
        let mineLeft = storage.left?.signatures ?? [:], theirsLeft = other.storage.left?.signatures ?? [:]
        if mineLeft.isEmpty, theirsLeft.isEmpty, let mine = storage.heldLines, let theirs = other.storage.heldLines, mine == theirs {
            return true
        }
        let common = Set(mineLeft.keys.filter { theirsLeft[$0] == mineLeft[$0] })
        guard let mineEntries = storage.entries(besides: common), let theirEntries = other.storage.entries(besides: common),
              mineEntries.count == theirEntries.count else { return false }
        func index(_ entries: [Entry]) -> [String: (UInt64, ContentDigest?)] {
            Dictionary(entries.map { ("\($0.root)/\($0.path)", ($0.signature, $0.content)) }, uniquingKeysWith: { first, _ in first })
        }
        let mine = index(mineEntries), theirs = index(theirEntries)
        return mine.count == theirs.count && mine.allSatisfy { key, value in
            theirs[key].map { $0.0 == value.0 && $0.1 == value.1 } ?? false
        }
    }
}
