import Foundation
import GRDB
import TeardownBase
import TeardownContent

/// The input snapshot of the last build (`InputSnapshot`), kept in the build store a row per
/// machine bundle, with one row for every other input. It was one file of every input's
/// signature, written whole after each build (for a comment that changes one bundle); now a build rewrites the rows of the bundles whose signature changed,
/// and the row of the rest. Its rows put together are the snapshot's stored form, which the
/// check reads as before.
extension BuildStore {
    /// The row of the inputs outside every bundle: the site's settings, its manual, the themes.
    package static let restGroup = ""

    /// The stored snapshot in its stored form, or nil when there is none.
    package func inputs() -> [UInt8]? { storedInputs()?.bytes }

    /// The stored snapshot in its stored form, with the signature each settled bundle's row
    /// was written under (`InputSnapshot.signature(of:)` of its entries then): a check that
    /// finds a bundle's entries unchanged takes its signature from here instead of grouping
    /// every entry by bundle again.
    package func storedInputs() -> (bytes: [UInt8], signatures: [String: ContentDigest])? {
        // A snapshot that cannot be read is none: every input is walked, which costs only time.
        try? queue.read { db in
            guard let head = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'inputs-head'") else { return nil }
            // Each row's lines are copied once, straight from SQLite's buffer into the stored form:
            // a copy of each row, then a copy of them all, would touch the snapshot three times.
            let size = try Int.fetchOne(db, sql: "SELECT sum(length(lines)) FROM inputs") ?? 0
            var bytes = InputSnapshot.storedFormStart(head: Array(head.utf8), capacity: size)
            var count = 0
            var signatures: [String: ContentDigest] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT grp, signature, count, lines FROM inputs")
            while let row = try rows.next() {
                let group: String = row[0], signature: String = row[1]
                if group != Self.restGroup, let digest = ContentDigest(hex: Substring(signature)) { signatures[group] = digest }
                count += row[2] as Int
                try row.withUnsafeData(atIndex: 3) { data in if let data { bytes += data } }
            }
            InputSnapshot.storedFormEnd(&bytes, count: count)
            counters.count(.snapshotBytesRead, by: bytes.count)
            return (bytes, signatures)
        }
    }

    /// The stored snapshot checked against the disk as its rows are read
    /// (`SnapshotRowCheck`), or trusted without a `stat` when `againstDisk` is false; nil
    /// when there is none, or it is damaged, or of other roots or settings, or of a published
    /// tree other than `tree` (any when nil). The bundles found as stored are left here, read
    /// back by key.
    package func checkedInputs(roots: [String], key: ContentDigest, tree: String? = nil,
                               againstDisk: Bool, racyWindow: Double? = nil) -> SnapshotRowCheck.Found? {
        let window = racyWindow ?? InputSnapshot.racyWindow(for: roots)
        let settledBefore = againstDisk ? Date().timeIntervalSince1970 - window : nil
        // A snapshot that cannot be read is none: every input is walked, which costs only time.
        let checked = try? queue.read { db -> (SnapshotRowCheck, Int)? in
            guard let head = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'inputs-head'"),
                  let check = SnapshotRowCheck(head: Array(head.utf8), roots: roots, key: key, tree: tree, settledBefore: settledBefore)
            else { return nil }
            var read = 0
            let rows = try Row.fetchCursor(db, sql: "SELECT grp, signature, count, lines FROM inputs")
            while let row = try rows.next() {
                let group: String = row[0], signature: String = row[1], count: Int = row[2]
                let stored = ContentDigest(hex: Substring(signature))
                // The row's bytes are SQLite's, valid only in here: the check copies them.
                read += try row.withUnsafeData(atIndex: 3) { lines -> Int in
                    let lines = lines ?? Data()
                    lines.withUnsafeBytes { check.add(group: group == Self.restGroup ? nil : group, signature: stored, count: count, lines: $0) }
                    return lines.count
                }
            }
            return (check, read)
        }
        guard let (check, read) = checked ?? nil else { return nil }
        counters.count(.snapshotBytesRead, by: read)
        let counters = counters
        let found = check.finish { [queue] group in
            counters.count(.snapshotRowsFetched)
            // A row that cannot be read back is none: the update declines, and the build walks.
            return try? queue.read { db in
                try Row.fetchOne(db, sql: "SELECT lines FROM inputs WHERE grp = ?", arguments: [group]).map { row in
                    try row.withUnsafeData(atIndex: 0) { [UInt8]($0 ?? Data()) }
                }
            } ?? nil
        }
        if let found { counters.count(.snapshotBytesKept, by: found.kept) }
        return found
    }

    /// Stores `snapshot` as the inputs of the tree `record` names, writing the rows of the
    /// bundles whose signature differs from the stored one (every row when `whole`). A racy
    /// bundle's row is always written: its content digests change as its entries settle.
    package func storeInputs(_ snapshot: InputSnapshot, record: InputSnapshot.Record, whole: Bool = false,
                             counters: BuildCounters = .none) throws {
        let signatures = snapshot.bundleSignatures()
        func signature(_ group: String) -> String {
            guard group != Self.restGroup, !signatures.racy.contains(group), let digest = signatures.all[group] else { return "-" }
            return digest.description
        }
        try writing { db in
            var stored: [String: String] = [:]
            if !whole {
                for row in try Row.fetchAll(db, sql: "SELECT grp, signature FROM inputs") { stored[row[0]] = row[1] }
            }
            // The bundles the snapshot left here must still have the rows it was checked against
            // (a store made anew since has none): else the stored snapshot would lack them.
            for (bundle, signature) in snapshot.leftInStore where whole || stored[bundle] != signature.description {
                throw LeftRowsGone(bundle: bundle)
            }
            // The groups to write: new or changed bundles, racy ones and the rest.
            var writing = Set([Self.restGroup])
            for bundle in signatures.all.keys {
                let now = signature(bundle)
                if whole || now == "-" || stored[bundle] != now { writing.insert(bundle) }
            }
            counters.count(.inputRowsWritten, by: writing.count)
            if whole { try db.execute(sql: "DELETE FROM inputs") }
            let upsert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO inputs(grp, signature, count, lines) VALUES (?, ?, ?, ?)")
            let delete = try db.cachedStatement(sql: "DELETE FROM inputs WHERE grp = ?")
            var found = Set<String>()
            try snapshot.eachLineGroup({ writing.contains($0 ?? Self.restGroup) }) { bundle, lines, count in
                let group = bundle ?? Self.restGroup
                found.insert(group)
                try upsert.execute(arguments: [group, signature(group), count, lines])
            }
            for group in writing where !found.contains(group) { try delete.execute(arguments: [group]) }
            // Bundles that are gone.
            for group in stored.keys where group != Self.restGroup && signatures.all[group] == nil {
                try delete.execute(arguments: [group])
            }
            try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('inputs-head', ?)",
                           arguments: [String(decoding: snapshot.head(record), as: UTF8.self)])
        }
    }

    /// Forgets the stored snapshot: the next build checks every input again.
    package func forgetInputs() {
        // The fallback of a failed write: if this fails too, the store is failing as a whole,
        // and the publish step's own write to it reports that.
        try? queue.write { db in
            try db.execute(sql: "DELETE FROM inputs; DELETE FROM meta WHERE name = 'inputs-head'")
        }
    }
}

/// A snapshot's bundle left in the build store whose row is no longer there to be kept.
struct LeftRowsGone: Error {
    let bundle: String
}
