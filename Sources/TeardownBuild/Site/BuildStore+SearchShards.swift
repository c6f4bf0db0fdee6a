import Foundation
import GRDB
import TeardownBase

/// What the store keeps of the search shards Pagefind wrote (`RecentShard`): each indexed
/// page's result in its shard (`search_fragments`: Pagefind names a result by its fragment's
/// hash), and the pages the recent shard holds, with the result of theirs it stands in for
/// (`search_recent`). Both are read by page and written with the publish that swaps the
/// shards in.
extension BuildStore {
    /// A page of the recent shard: a machine's, part's or manual page's first page, with the
    /// later pages Pagefind reads joined to it.
    package struct RecentPage: Sendable, Equatable {
        package let path: String
        package let later: [String]
        /// The folder of the shard that indexes the page when it is indexed again.
        package let shard: String
        /// The page's result in that shard, which the search page leaves out; nil when the
        /// shard has none (a new page) or the same one (the indexed text did not change).
        package var superseded: String? = nil
        /// That result's filters as Pagefind's fragment has them (JSON), which the search page
        /// takes off the filters' counts.
        package var filters: String? = nil
    }

    /// What a build changes of the shards' rows.
    package struct ShardChange: Sendable {
        /// The results of each shard indexed again, by the shard's folder, then by page.
        package var fragments: [String: [String: String]] = [:]
        /// The shards the site has: the rows of any other go.
        package var folders: [String]? = nil
        /// The recent shard's pages now; nil: unchanged.
        package var recent: [RecentPage]? = nil
    }

    static let shardTables = """
        CREATE TABLE search_fragments(page TEXT PRIMARY KEY, shard TEXT NOT NULL, fragment TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX search_fragments_by_shard ON search_fragments(shard);
        CREATE TABLE search_recent(page TEXT PRIMARY KEY, later TEXT NOT NULL, shard TEXT NOT NULL,
                                   superseded TEXT, filters TEXT) WITHOUT ROWID;
        """

    /// The pages the recent shard holds.
    package func recentPages() throws -> [RecentPage] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT page, later, shard, superseded, filters FROM search_recent ORDER BY page").map { row in
                let later: String = row[1]
                return RecentPage(path: row[0], later: later.isEmpty ? [] : later.components(separatedBy: "\n"), shard: row[2],
                                  superseded: row[3], filters: row[4])
            }
        }
    }

    /// Each page's result in its shard, by page; a page no shard indexes is left out.
    package func searchFragments(of pages: some Sequence<String>) throws -> [String: String] {
        try reading { db in
            var found: [String: String] = [:]
            let one = try db.cachedStatement(sql: "SELECT fragment FROM search_fragments WHERE page = ?")
            for page in pages { found[page] = try String.fetchOne(one, arguments: [page]) }
            return found
        }
    }

    static func record(_ db: Database, _ change: ShardChange) throws {
        if let folders = change.folders {
            let known = folders.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ")
            try db.execute(sql: "DELETE FROM search_fragments WHERE shard NOT IN (\(known))")
        }
        let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO search_fragments(page, shard, fragment) VALUES (?, ?, ?)")
        for (shard, pages) in change.fragments {
            try db.execute(sql: "DELETE FROM search_fragments WHERE shard = ?", arguments: [shard])
            for (page, fragment) in pages { try insert.execute(arguments: [page, shard, fragment]) }
        }
        guard let recent = change.recent else { return }
        try db.execute(sql: "DELETE FROM search_recent")
        let add = try db.cachedStatement(sql: "INSERT INTO search_recent(page, later, shard, superseded, filters) VALUES (?, ?, ?, ?, ?)")
        for page in recent {
            try add.execute(arguments: [page.path, page.later.joined(separator: "\n"), page.shard, page.superseded, page.filters])
        }
    }
}
