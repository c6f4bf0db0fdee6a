import Foundation
import GRDB
import TeardownBase

/// The state one output folder's builds leave for the next, in one SQLite database
/// (`state.sqlite` in the output's cache folder) that each publish updates in place, in one
/// transaction: what each output tree holds (path and digest), and what each page of the
/// published tree read (unit -> pages, with each unit's digest then).
///
/// It replaces files rewritten whole on every publish: a one-comment build parsed and wrote
/// the whole manifest and dependency index to change a dozen rows.
/// Now a build reads the two manifests, the units' digests and the readers of the units that
/// changed, and writes only the rows that differ. (SQLite was chosen over files per machine
/// for its indexes, partial reads and writes and crash-safe transactions; `sqlite3` opens it.)
///
/// The spare tree is the site one publish ago: it differs from the published tree only where
/// the last publish changed something, and the store keeps those paths (`lag`), so a build
/// brings the spare up to date from them and the changes of its own, never comparing whole
/// manifests.
///
/// It also keeps, for each machine bundle, the signature its units were last digested under
/// (`bundles`): a build finding a bundle with that signature, under the same settings, takes
/// the bundle's unit digests as they are stored instead of working them out again.
///
/// A store that is missing, damaged or of another version is emptied: every page is rendered
/// once, never a wrong site.
package struct BuildStore: Sendable {
    /// Bumped whenever the tables change; a store of another version of Teardown starts over too,
    /// as every page's digest holds the version.
    package static let format = "teardown-state 17 " + TeardownVersion.build

    package let queue: DatabaseQueue
    /// The database file, for messages.
    package let path: String
    /// Where the rows a build reads are counted (`counting`).
    package private(set) var counters = BuildCounters.none

    /// This store, counting the rows read through it.
    package func counting(_ counters: BuildCounters) -> BuildStore {
        var store = self
        store.counters = counters
        return store
    }
    /// Told, once a second, how long a write has waited for another process holding the store.
    package let waiting = Waiting()

    package final class Waiting: @unchecked Sendable {
        private let lock = NSLock()
        private var handler: (@Sendable (Int) -> Void)?

        package func report(to handler: (@Sendable (Int) -> Void)?) { lock.withLock { self.handler = handler } }

        func tell(_ seconds: Int) { lock.withLock { handler }?(seconds) }
    }

    /// How long a write waits for another process holding the store before it gives up.
    package static let patience = 30

    /// Why the store could not be used as it was, in one line.
    package enum Notice: String, Sendable {
        case damaged = "the build state was damaged: it starts over and every page is rendered"
        case otherVersion = "the build state was made by another version of Teardown: every page is rendered"
    }

    /// Opens or makes the store at `path`; a damaged store is set aside and made anew. Another
    /// process holding it is waited for, not taken for damage.
    /// `onWait` is told, once a second, how long a write has waited for another process.
    package static func open(_ path: String, onWait: (@Sendable (Int) -> Void)? = nil) throws -> (BuildStore, Notice?) {
        do {
            let store = try BuildStore(path: path)
            store.waiting.report(to: onWait)
            return (store, try store.prepare())
        } catch where isDamage(error) || error is Damaged {
            try setAside(path)
            let store = try BuildStore(path: path)
            _ = try store.prepare()
            return (store, .damaged)
        }
    }

    /// Deletes the store at `path` with its write-ahead log.
    package static func remove(_ path: String) throws {
        for suffix in ["", "-wal", "-shm"] { try FileSystem.unlinkIfPresent(path + suffix) }
    }

    /// The store at `path` as it is: nil when there is none, or it is of another format or
    /// cannot be read. Unlike `open`, it never makes, mends or upgrades a store, and writes
    /// nothing: sync looks at the inputs before any build, a dry run among them, and a store it
    /// mended would keep the build after it from saying the state was damaged. The connection
    /// can write, so the build after the look uses it instead of opening the store again.
    package static func existing(_ path: String) -> BuildStore? {
        // No store, another format or one SQLite cannot open: the build's `open` decides what to
        // make of it, and says so.
        guard FileSystem.exists(path), let store = try? BuildStore(path: path),
              (try? store.queue.read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE name = 'format'") }) == format
        else { return nil }
        return store
    }

    private init(path: String) throws {
        var configuration = Configuration()
        // Another process holding the store (a `sqlite3` shell looking inside, another build
        // reading it) is waited for, and the wait told once a second; after `patience`, the
        // failure says it is busy, not damaged.
        let waiting = waiting
        configuration.busyMode = .callback { tries in
            let step = 10  // milliseconds between tries
            if tries > 0, tries % (1000 / step) == 0 { waiting.tell(tries * step / 1000) }
            guard tries * step < Self.patience * 1000 else { return false }
            usleep(useconds_t(step * 1000))
            return true
        }
        configuration.prepareDatabase { db in
            // WAL: a kill mid-transaction leaves the last committed state. FULL: the commit
            // that vouches for a tree is on disk before the tree is swapped in.
            // A small page cache: the store's large tables are read once a build, in order, from
            // pages the system caches anyway, and SQLite's default was a large share of a
            // one-comment sync's heap.
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -512")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.path = path
    }

    /// Makes the tables of this format, dropping those of any other.
    private func prepare() throws -> Notice? {
        try writing { db in
            let stored = try? String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'")
            if stored == Self.format { return nil }
            for table in ["meta", "trees", "outputs", "units", "pages", "bundles", "lag", "inputs", "search_pages", "search_words", "search_fragments", "search_recent"] {
                try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
            }
            try db.execute(sql: """
                CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE trees(identity TEXT PRIMARY KEY, whole INTEGER NOT NULL, count INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE outputs(tree TEXT NOT NULL, path TEXT NOT NULL, high INTEGER NOT NULL, low INTEGER NOT NULL,
                                     PRIMARY KEY(tree, path)) WITHOUT ROWID;
                CREATE TABLE pages(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, reads TEXT NOT NULL);
                CREATE TABLE units(key TEXT PRIMARY KEY, high INTEGER NOT NULL, low INTEGER NOT NULL,
                                   readers BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE bundles(name TEXT PRIMARY KEY, slug TEXT NOT NULL, high INTEGER NOT NULL,
                                     low INTEGER NOT NULL, pages INTEGER NOT NULL, copies INTEGER NOT NULL,
                                     listed INTEGER NOT NULL, photos INTEGER NOT NULL,
                                     indexed INTEGER NOT NULL, summary BLOB NOT NULL,
                                     catalog BLOB NOT NULL) WITHOUT ROWID;
                CREATE INDEX bundles_by_slug ON bundles(slug);
                CREATE TABLE lag(path TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE TABLE inputs(grp TEXT PRIMARY KEY, signature TEXT NOT NULL, count INTEGER NOT NULL,
                                    lines BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE search_pages(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, item TEXT NOT NULL,
                                          ord INTEGER NOT NULL, words TEXT NOT NULL);
                CREATE TABLE search_words(word TEXT PRIMARY KEY, file INTEGER NOT NULL, postings BLOB NOT NULL,
                                          pages INTEGER NOT NULL, entry TEXT NOT NULL) WITHOUT ROWID;
                CREATE INDEX search_words_by_file ON search_words(file, word);
                """ + Self.shardTables)
            try db.execute(sql: "INSERT INTO meta(name, value) VALUES ('format', ?)", arguments: [Self.format])
            return stored == nil ? nil : .otherVersion
        }
    }

    // MARK: Reading

    /// What the store knows of a spare tree.
    package enum Spare: Sendable {
        /// Its whole manifest.
        case whole([String: ContentDigest])
        /// It is the published tree but at these paths, where it holds these digests (nil: nothing).
        case lagging([String: ContentDigest?])
    }

    /// What the store knows of the trees `published` and `spare` (identities), forgetting
    /// every other tree: the published manifest if whole (read by path as the build asks), the
    /// spare as it differs from it, and whether the reads are the published tree's.
    package func trees(published: String?, spare: String?) throws -> (published: StoredManifest?,
                                                              spare: Spare?, readsArePublished: Bool) {
        try writing { db in
            var whole: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT identity, whole, count FROM trees") {
                let identity: String = row[0]
                if identity == published || identity == spare {
                    if row[1] as Bool { whole[identity] = row[2] }
                } else {
                    try db.execute(sql: "DELETE FROM outputs WHERE tree = ?", arguments: [identity])
                    try db.execute(sql: "DELETE FROM trees WHERE identity = ?", arguments: [identity])
                }
            }
            let readsTree = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'reads-tree'")
            let publishedManifest = published.flatMap { tree in whole[tree].map { StoredManifest(store: self, tree: tree, count: $0) } }
            var spareState: Spare?
            if let published, let spare, publishedManifest != nil, whole[spare] != nil,
               try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'lag-pair'") == published + " " + spare {
                var lag: [String: ContentDigest?] = [:]
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT lag.path, outputs.high, outputs.low FROM lag
                    LEFT JOIN outputs ON outputs.tree = ? AND outputs.path = lag.path
                    """, arguments: [spare])
                while let row = try rows.next() {
                    let high: Int64? = row[1], low: Int64? = row[2]
                    let held = high.flatMap { high in low.map { ContentDigest(high: UInt64(bitPattern: high), low: UInt64(bitPattern: $0)) } }
                    // Kept when nil too: the spare holds nothing there.
                    lag.updateValue(held, forKey: try checked(row[0]))
                }
                spareState = .lagging(lag)
            } else if let spare, whole[spare] != nil {
                spareState = .whole(try manifest(db, spare))
            }
            return (publishedManifest, spareState, published != nil && readsTree == published)
        }
    }

    /// Every output of `tree`, each path checked.
    private func manifest(_ db: Database, _ tree: String) throws -> [String: ContentDigest] {
        let found = try Self.digests(db, "SELECT path, high, low FROM outputs WHERE tree = ?", [tree])
        counters.count(.manifestRowsRead, by: found.count)
        for path in found.keys { _ = try checked(path) }
        return found
    }

    /// Every output of `tree`.
    func outputs(of tree: String) throws -> [String: ContentDigest] {
        try reading { db in try manifest(db, tree) }
    }

    /// The outputs of `tree` whose paths start with `prefix` (which ends in "/"), each checked.
    func outputs(of tree: String, under prefix: String) throws -> [String: ContentDigest] {
        try reading { db in
            let found = try Self.digests(db, "SELECT path, high, low FROM outputs WHERE tree = ? AND path >= ? AND path < ?",
                                         [tree, prefix, Self.end(of: prefix)])
            counters.count(.manifestRowsRead, by: found.count)
            for path in found.keys { _ = try checked(path) }
            return found
        }
    }

    func count(of tree: String, under prefix: String) throws -> Int {
        try reading { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM outputs WHERE tree = ? AND path >= ? AND path < ?",
                             arguments: [tree, prefix, Self.end(of: prefix)]) ?? 0
        }
    }

    /// Every unit's digest when the published tree's pages read it.
    package func units() throws -> [String: ContentDigest] {
        try reading { db in try Self.digests(db, "SELECT key, high, low FROM units", []) }
    }

    /// The stored digests of the units named `keys` or named under any of `prefixes`: the
    /// units of the machines a build digests again, not those of every machine.
    package func units(keys: [String], prefixes: [String]) throws -> [String: ContentDigest] {
        try reading { db in
            var digests: [String: ContentDigest] = [:]
            let one = try db.cachedStatement(sql: "SELECT key, high, low FROM units WHERE key = ?")
            let range = try db.cachedStatement(sql: "SELECT key, high, low FROM units WHERE key >= ? AND key < ?")
            func collect(_ rows: RowCursor) throws {
                while let row = try rows.next() {
                    digests[row[0]] = ContentDigest(high: UInt64(bitPattern: row[1]), low: UInt64(bitPattern: row[2]))
                }
            }
            for key in keys { try collect(Row.fetchCursor(one, arguments: [key])) }
            for prefix in prefixes { try collect(Row.fetchCursor(range, arguments: [prefix, Self.end(of: prefix)])) }
            counters.count(.unitRowsRead, by: digests.count)
            return digests
        }
    }

    /// The first key after every key that starts with `prefix` (which ends in "/").
    private static func end(of prefix: String) -> String { String(prefix.dropLast()) + "0" }

    /// The slugs of the machines the stored units belong to: one key looked up a machine, each
    /// search starting past the units of the machine before (a machine holds a unit per part,
    /// and reading every key showed in a one-comment sync's profile).
    package func machineSlugs() throws -> Set<String> {
        try reading { db in
            var slugs = Set<String>()
            let first = try db.cachedStatement(sql: "SELECT key FROM units WHERE key >= ? AND key < 'm0' ORDER BY key LIMIT 1")
            let after = try db.cachedStatement(sql: "SELECT key FROM units WHERE key > ? AND key < 'm0' ORDER BY key LIMIT 1")
            var next = try String.fetchOne(first, arguments: ["m/"])
            while let key = next {
                let rest = key.dropFirst(2)
                guard let slash = rest.firstIndex(of: "/") else {
                    next = try String.fetchOne(after, arguments: [key])
                    continue
                }
                let slug = String(rest[..<slash])
                slugs.insert(slug)
                next = try String.fetchOne(first, arguments: [Self.end(of: "m/\(slug)/")])
            }
            counters.count(.unitMachinesRead, by: slugs.count)
            return slugs
        }
    }

    /// Rows of (name, high, low) as digests by name. A digest is stored as two integers,
    /// its halves' bit patterns.
    private static func digests(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [String: ContentDigest] {
        var digests: [String: ContentDigest] = [:]
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            digests[row[0]] = ContentDigest(high: UInt64(bitPattern: row[1]), low: UInt64(bitPattern: row[2]))
        }
        return digests
    }

    static func columns(_ digest: ContentDigest) -> StatementArguments {
        [Int64(bitPattern: digest.high), Int64(bitPattern: digest.low)]
    }

    /// The pages that read any of `units`, through the index: the rest of the reads stay on disk.
    package func readers(of units: some Sequence<String>) throws -> Set<String> {
        try reading { db in
            var ids = Set<Int64>()
            let statement = try db.cachedStatement(sql: "SELECT readers FROM units WHERE key = ?")
            for unit in units {
                if let blob = try Data.fetchOne(statement, arguments: [unit]) { ids.formUnion(Self.pageIDs(blob)) }
            }
            var pages = Set<String>()
            let path = try db.cachedStatement(sql: "SELECT path FROM pages WHERE id = ?")
            for id in ids { if let page = try String.fetchOne(path, arguments: [id]) { pages.insert(page) } }
            return pages
        }
    }

    /// What each page of the published tree read, by page: for tests and `sqlite3` users alike.
    package func reads() throws -> [String: Set<String>] {
        try reading { db in
            var reads: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, reads FROM pages") {
                reads[row[0]] = Set(Self.keys(row[1]))
            }
            return reads
        }
    }

    /// A unit's readers are page ids, 4 bytes each: the reverse index of a unit every page
    /// reads (the site's settings) is one row, rewritten only when its set of readers changes.
    static func pageIDs(_ blob: Data) -> [Int64] {
        blob.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - 3, by: 4).map { Int64(raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self).littleEndian) }
        }
    }

    static func blob<ID: BinaryInteger>(_ ids: some Collection<ID>) -> Data {
        var data = Data(capacity: ids.count * 4)
        for id in ids.sorted() { withUnsafeBytes(of: UInt32(truncatingIfNeeded: id).littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    /// A page's reads: the unit keys, one a line.
    static func keys(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    // MARK: Writing

    /// From now until `record`, nothing vouches for what `tree` holds.
    package func open(tree: String) throws {
        try writing { db in try db.execute(sql: "UPDATE trees SET whole = 0 WHERE identity = ?", arguments: [tree]) }
    }
}
