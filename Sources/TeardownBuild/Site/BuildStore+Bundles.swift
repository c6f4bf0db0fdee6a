import Foundation
import GRDB
import TeardownBase

/// The machines' rows: each bundle's signature when its units were digested, what its outputs
/// came to, its summary and its catalog facts, by bundle name and by slug.
extension BuildStore {
    /// A bundle whose units the store holds: its machine's slug, its signature when they were
    /// digested, and what its machine's outputs came to then.
    package struct BundleRow: Sendable {
        package let slug: String
        package let signature: ContentDigest
        package let counts: SitePlan.MachineCounts
    }

    /// Each bundle whose units the store holds as digested under `context` (the settings the
    /// digests depend on besides the bundle), by its name.
    package func bundles(context: ContentDigest) throws -> [String: BundleRow] {
        try reading { db in
            guard try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'unit-context'") == context.description
            else { return [:] }
            var bundles: [String: BundleRow] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, slug, high, low, pages, copies, listed, photos, indexed FROM bundles") {
                bundles[row[0]] = BundleRow(
                    slug: row[1], signature: ContentDigest(high: UInt64(bitPattern: row[2]), low: UInt64(bitPattern: row[3])),
                    counts: SitePlan.MachineCounts(pages: row[4], copies: row[5], listed: row[6], photos: row[7],
                                                   indexed: row[8]))
            }
            counters.count(.bundleRowsRead, by: bundles.count)
            return bundles
        }
    }

    /// The summary of the machine `slug` as its bundle's row keeps it (`MachineSummary`), if it has one.
    package func summary(of slug: String) throws -> [UInt8]? {
        try reading { db in
            let statement = try db.cachedStatement(sql: "SELECT summary FROM bundles WHERE slug = ?")
            return try Data.fetchOne(statement, arguments: [slug]).map { [UInt8]($0) }
        }
    }

    /// Every machine's summary the rows hold, by slug.
    package func summaries() throws -> [String: [UInt8]] { try everyRow(.summary) }

    /// What catalog.json says of each machine the rows hold (`CatalogFacts`), by slug.
    package func catalogFacts() throws -> [String: [UInt8]] { try everyRow(.catalog) }

    private enum Column: String { case summary, catalog }

    private func everyRow(_ column: Column) throws -> [String: [UInt8]] {
        try reading { db in
            var values: [String: [UInt8]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT slug, \(column.rawValue) FROM bundles")
            while let row = try rows.next() {
                let bytes: Data = row[1]
                values[row[0]] = [UInt8](bytes)
            }
            return values
        }
    }
}
