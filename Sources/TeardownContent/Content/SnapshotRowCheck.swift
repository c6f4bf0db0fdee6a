import Foundation
import TeardownBase

/// The stored snapshot checked against the disk as the build store reads it, a row (a bundle)
/// at a time, every entry `stat`ed on all cores a batch of rows at a time. Only the rows that
/// differ, hold a racy entry, or belong to no bundle are kept; a bundle found as stored is
/// left in the store (`SnapshotLeftRows`) and read back if the build asks for its lines. The
/// whole stored form, read and then checked, was most of a one-comment sync's peak memory in a
/// large catalog.
///
/// Without a time to check against (`settledBefore` nil), nothing is `stat`ed: the rows are
/// trusted, as by a process that knows every change since (`SiteBuilder.inputs(changed:)`).
package final class SnapshotRowCheck {
    /// What the check found.
    package struct Found {
        /// The stored snapshot: the rows kept, settled entries without their content digest,
        /// and the bundles left in the store.
        package let snapshot: InputSnapshot
        package let record: InputSnapshot.Record
        /// The paths (absolute) whose entries differ from the disk.
        package let changed: [String]
        /// Whether racy entries have settled since they were stored.
        package let settled: Bool
        /// Bytes of lines kept (the rest were left in the store).
        package let kept: Int

        /// The inputs as they are now: the stored snapshot with the paths that differ looked
        /// at again (`InputSnapshot.updating`); `unchanged` is the record when nothing differs.
        package func current() -> (snapshot: InputSnapshot, unchanged: InputSnapshot.Record?, settled: Bool)? {
            if changed.isEmpty { return (snapshot, record, settled) }
            return snapshot.updating(changed).map { ($0, nil, false) }
        }
    }

    /// Rows are `stat`ed a batch of this many bytes of lines at a time: enough rows to keep
    /// both cores busy, few enough bytes that the batch is not a second copy of the store.
    static let batchBytes = 1 << 20

    private let roots: [String]
    private let key: ContentDigest
    private let record: InputSnapshot.Record
    private let settledBefore: Double?
    private let prefixes: [[UInt8]]
    private let folders: [Int32]
    private var batch: [UInt8] = []
    private var rows: [(group: String?, signature: ContentDigest?, range: Range<Int>)] = []
    private var held: [UInt8] = []
    private var heldSignatures: [String: ContentDigest] = [:]
    private var left: [String: ContentDigest] = [:]
    private var changed: [String] = []
    private var settled = false
    private var failed = false

    /// A check of the rows stored under `head` (`InputSnapshot.head`); nil when the head is not
    /// of these roots and settings, or of a published tree other than `tree` (any when nil).
    package init?(head: [UInt8], roots: [String], key: ContentDigest, tree: String?, settledBefore: Double?) {
        var empty = InputSnapshot.storedFormStart(head: head, capacity: 0)
        InputSnapshot.storedFormEnd(&empty, count: 0)
        guard let record = InputSnapshot.read(empty, roots: roots, key: key, tree: { tree == nil || $0 == tree },
                                              settledBefore: nil)?.record
        else { return nil }
        self.roots = roots
        self.key = key
        self.record = record
        self.settledBefore = settledBefore
        prefixes = roots.map { Array($0.utf8) + [UInt8(ascii: "/")] }
        // Entries are looked up from their root, opened once (see `InputSnapshot.verify`).
        folders = settledBefore == nil ? [] : roots.map(FileSystem.openFolder)
    }

    deinit { folders.forEach(FileSystem.closeFolder) }

    /// One stored row: a bundle's lines (`group` nil for those of no bundle), the signature it
    /// was stored under (nil when it was racy) and how many lines it holds.
    package func add(group: String?, signature: ContentDigest?, count: Int, lines: UnsafeRawBufferPointer) {
        guard !failed else { return }
        let start = batch.count
        batch += lines
        // A row cut short must not vouch for the entries it lost.
        guard ByteSearch.count(UInt8(ascii: "\n"), in: batch, start..<batch.count) == count,
              batch.last == UInt8(ascii: "\n") || count == 0
        else {
            failed = true
            return
        }
        rows.append((group, signature, start..<batch.count))
        if batch.count >= Self.batchBytes { checkBatch() }
    }

    /// The snapshot found; nil when a row was damaged. `fetch` reads a left bundle's lines back.
    package func finish(fetch: @escaping @Sendable (String) -> [UInt8]?) -> Found? {
        checkBatch()
        guard !failed else { return nil }
        var snapshot = InputSnapshot(key: key, roots: roots, lines: held,
                                     left: left.isEmpty ? nil : SnapshotLeftRows(signatures: left, fetch: fetch))
        snapshot.signatures = snapshot.signatures(taking: heldSignatures)
        return Found(snapshot: snapshot, record: record, changed: changed, settled: settled, kept: held.count)
    }

    /// Checks the rows in hand, keeping those that differ and leaving the others.
    private func checkBatch() {
        defer {
            batch.removeAll(keepingCapacity: true)
            rows.removeAll(keepingCapacity: true)
        }
        guard !failed, !rows.isEmpty else { return }
        let bytes = batch, roots = roots, prefixes = prefixes, folders = folders, rootCount = roots.count
        let results = ParallelMap.map(rows) { row -> (settled: [Range<Int>], changed: [String])? in
            guard let settledBefore else {
                // Trusted: a row left in the store is parsed when it is read back, if ever.
                let leaving = row.group != nil && row.signature != nil
                return leaving || SnapshotLine.each(in: bytes, row.range, rootCount: rootCount, { _ in }) ? ([], []) : nil
            }
            return InputSnapshot.verifyLines(bytes, row.range, prefixes: prefixes, folders: folders, roots: roots,
                                             settledBefore: settledBefore)
        }
        for (row, result) in zip(rows, results) {
            guard let result else {
                failed = true
                return
            }
            changed += result.changed
            settled = settled || !result.settled.isEmpty
            guard let group = row.group, let signature = row.signature, result.changed.isEmpty, result.settled.isEmpty else {
                // Kept: its settled entries lose their content digest, as `InputSnapshot.check` refreshes them.
                var lines = Array(bytes[row.range])
                InputSnapshot.keepLines(&lines, 0..<lines.count,
                                        cutting: result.settled.map { ($0.lowerBound - row.range.lowerBound)..<($0.upperBound - row.range.lowerBound) })
                held += lines
                if let group = row.group, let signature = row.signature { heldSignatures[group] = signature }
                continue
            }
            left[group] = signature
        }
    }
}
