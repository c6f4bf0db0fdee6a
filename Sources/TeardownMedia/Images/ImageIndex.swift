import Foundation
import GRDB
import TeardownBase

/// The image cache's index, in one SQLite database (`images/index.sqlite`) updated in place:
/// per machine bundle, its images' keys and outcomes and its composed cover (`BundleImages`),
/// and per source file, the digest of its bytes under its `stat` signature.
///
/// It replaces three files read and rewritten whole on every build (an outcome per key, the
/// keys per bundle, a line per source, megabytes for a large catalog): a one-comment sync looked up
/// 20,000 outcomes by key, worked out 200 cover keys and rewrote the bundle index to change
/// one bundle. Now an unchanged bundle's row is taken as it is, and a build writes the rows of
/// the bundles whose images changed. The cache is the site's, shared by the builds of every
/// output (public/, serve's preview), so it is a database of its own beside the entries
/// rather than part of one output's build store.
///
/// A damaged index, or one of another format, is made anew, and the build makes its images
/// again, as with a deleted cache: what an entry holds (sizes, hit masks, photo metadata) is
/// kept in the index, not beside the files.
package struct ImageIndex: Sendable {
    package static let format = "teardown-images 1"

    private let queue: DatabaseQueue

    /// Opens or makes the index at `path`; nil when not even a new one can be made there (an
    /// unwritable cache), and the build goes on without remembering its images' keys.
    package static func open(_ path: String) -> ImageIndex? {
        if var index = try? ImageIndex(path: path), let isNew = try? index.prepare() {
            index.isNew = isNew
            return index
        }
        return remade(path)
    }

    /// A new, empty index at `path` in place of a damaged one (SQLite finds some damage only
    /// when a page is read): every build would otherwise fail to read and write it again.
    package static func remade(_ path: String) -> ImageIndex? {
        for suffix in ["", "-wal", "-shm"] { try? FileSystem.unlinkIfPresent(path + suffix) }
        guard var index = try? ImageIndex(path: path), (try? index.prepare()) != nil else { return nil }
        index.isNew = true
        return index
    }

    private init(path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        var configuration = Configuration()
        // serve and sync may build two outputs of one site at once.
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            // Losing the index costs only time: no fsync per build (as the files it replaces).
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Whether the index is new: then the files of earlier versions are read once.
    package private(set) var isNew = false

    /// Makes the tables of this format, dropping those of any other; true when it made them.
    private func prepare() throws -> Bool {
        try queue.write { db in
            let stored = try? String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'")
            if stored == Self.format { return false }
            for table in ["meta", "bundles", "sources"] { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
            try db.execute(sql: """
                CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE bundles(name TEXT PRIMARY KEY, settings TEXT NOT NULL, images BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE sources(path TEXT PRIMARY KEY, signature INTEGER NOT NULL, digest TEXT NOT NULL) WITHOUT ROWID;
                """)
            try db.execute(sql: "INSERT INTO meta(name, value) VALUES ('format', ?)", arguments: [Self.format])
            return true
        }
    }

    /// Every bundle's row: the settings its keys were made under, and its images as stored.
    package func bundles() throws -> [String: (settings: String, images: Data)] {
        try queue.read { db in
            var rows: [String: (settings: String, images: Data)] = [:]
            let cursor = try Row.fetchCursor(db, sql: "SELECT name, settings, images FROM bundles")
            while let row = try cursor.next() { rows[row[0]] = (row[1], row[2]) }
            return rows
        }
    }

    /// The digest stored for the source at `path`, with the signature it was taken under.
    package func source(_ path: String) -> (signature: UInt64, digest: String)? {
        // The index is a memo: a row that cannot be read is a miss, and the source is read again.
        try? queue.read { db in
            try Row.fetchOne(db, sql: "SELECT signature, digest FROM sources WHERE path = ?", arguments: [path])
                .map { (UInt64(bitPattern: $0[0] as Int64), $0[1]) }
        }
    }

    /// Every source's stored digest: one query, for a build that keys many images (a full one).
    package func sources() -> [String: (signature: UInt64, digest: String)] {
        // The index is a memo: rows that cannot be read are misses, and their sources are read again.
        (try? queue.read { db in
            var sources: [String: (signature: UInt64, digest: String)] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, signature, digest FROM sources")
            while let row = try rows.next() { sources[row[0]] = (UInt64(bitPattern: row[1] as Int64), row[2]) }
            return sources
        }) ?? [:]
    }

    /// The stamp of the entries folder as it was when every row's entry was last known present.
    package func entriesStamp() -> String? {
        // No stamp vouches for nothing: the entries folder is listed instead.
        try? queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'entries'") }
    }

    /// What one build changes, written in one transaction.
    package struct Changes {
        package var bundles: [String: (settings: String, images: Data)] = [:]
        package var goneBundles: [String] = []
        package var sources: [String: (signature: UInt64, digest: String)] = [:]
        package var goneSources: [String] = []
        /// The entries folder's stamp to vouch for, or nil to vouch for none.
        package var entriesStamp: String?
    }

    package func write(_ changes: Changes, counters: BuildCounters = .none) {
        counters.count(.imageRowsWritten, by: changes.bundles.count + changes.goneBundles.count)
        // The index is a memo: rows not written are keyed again by the next build.
        try? queue.write { db in
            for (name, row) in changes.bundles {
                try db.execute(sql: "INSERT OR REPLACE INTO bundles(name, settings, images) VALUES (?, ?, ?)",
                               arguments: [name, row.settings, row.images])
            }
            for name in changes.goneBundles { try db.execute(sql: "DELETE FROM bundles WHERE name = ?", arguments: [name]) }
            for (path, source) in changes.sources {
                try db.execute(sql: "INSERT OR REPLACE INTO sources(path, signature, digest) VALUES (?, ?, ?)",
                               arguments: [path, Int64(bitPattern: source.signature), source.digest])
            }
            for path in changes.goneSources { try db.execute(sql: "DELETE FROM sources WHERE path = ?", arguments: [path]) }
            if let stamp = changes.entriesStamp {
                try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('entries', ?)", arguments: [stamp])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE name = 'entries'")
            }
        }
    }
}
