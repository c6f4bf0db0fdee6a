import GRDB
import TeardownBase

extension BuildStore {
    /// The outputs of `tree` at `paths`, by path: those it does not hold are left out.
    ///
    /// Asked for in batches of `IN` lists: a query a path paid the statement's set-up for each,
    /// and a sync asks for every listing page it plans, thousands in a large catalog (Benchmarks/README.md,
    /// "100,000 parts, page live after one comment").
    func outputs(of tree: String, at paths: [String]) throws -> [String: ContentDigest] {
        try reading { db in
            var found: [String: ContentDigest] = [:]
            for start in stride(from: 0, to: paths.count, by: Self.batch) {
                let batch = paths[start..<min(start + Self.batch, paths.count)]
                let list = repeatElement("?", count: batch.count).joined(separator: ",")
                let statement = try db.cachedStatement(sql: "SELECT path, high, low FROM outputs WHERE tree = ? AND path IN (\(list))")
                let rows = try Row.fetchCursor(statement, arguments: StatementArguments([tree] + Array(batch)))
                while let row = try rows.next() {
                    found[row[0]] = ContentDigest(high: UInt64(bitPattern: row[1]), low: UInt64(bitPattern: row[2]))
                }
            }
            counters.count(.manifestRowsRead, by: found.count)
            return found
        }
    }

    /// Paths asked for in one query: well under SQLite's limit on parameters, and full batches
    /// share one prepared statement.
    private static let batch = 500
}
