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
    package static let format = "teardown-images 3"

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
            // A small page cache, as the build store's (`BuildStore`).
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -512")
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
            // An upgrade that fails leaves an index made anew below: its images are made again.
            if let stored, Self.previousFormats.contains(stored), (try? Self.upgrade(db)) != nil { return false }
            for table in ["meta", "bundles", "sources"] { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
            try db.execute(sql: """
                CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE sources(path TEXT PRIMARY KEY, signature INTEGER NOT NULL, digest TEXT NOT NULL) WITHOUT ROWID;
                """)
            try db.execute(sql: Self.bundlesTable)
            try db.execute(sql: "INSERT INTO meta(name, value) VALUES ('format', ?)", arguments: [Self.format])
            return true
        }
    }

    /// One bundle's row: the settings its keys were made under, what is kept beside its images
    /// (`BundleImages.Summary`), its composed cover alone (the catalog's cards ask for every
    /// machine's), and its images as stored, with the digest of both.
    package struct Row: Sendable {
        package let settings: String
        package let summary: BundleImages.Summary
        package let cover: Data?
        package let images: Data
        package let digest: ContentDigest

        package init(settings: String, images: BundleImages) throws {
            self.settings = settings
            summary = images.summary
            cover = try images.cover.map { try BinaryEncoder().encode($0) }
            self.images = try BinaryEncoder().encode(images)
            digest = Self.digest(cover: cover, images: self.images)
        }

        init(settings: String, summary: BundleImages.Summary, cover: Data?, images: Data, digest: ContentDigest) {
            self.settings = settings
            self.summary = summary
            self.cover = cover
            self.images = images
            self.digest = digest
        }

        /// Whether the bytes are those the row was written with.
        package var isWhole: Bool { Self.digest(cover: cover, images: images) == digest }

        static func digest(cover: Data?, images: Data) -> ContentDigest {
            var fingerprint = Fingerprint()
            fingerprint.add(cover != nil)
            if let cover { fingerprint.add(cover) }
            fingerprint.add(images)
            return fingerprint.digest
        }
    }

    /// The formats before the rows kept their summary beside their images, and their cover's
    /// digest apart.
    private static let previousFormats: Set<String> = ["teardown-images 1", "teardown-images 2"]

    /// Brings an index of a previous format to this one in place: its rows are what an entry
    /// holds (sizes, hit masks, photo metadata), which only processing the images again would
    /// give back. A row that does not decode is dropped; its bundle's images are looked up again.
    private static func upgrade(_ db: Database) throws {
        var rows: [String: Row] = [:]
        for row in try GRDB.Row.fetchAll(db, sql: "SELECT name, settings, images FROM bundles") {
            let bytes: Data = row[2]
            // A row that does not decode was a miss before the upgrade too.
            if let images = try? BinaryDecoder().read(BundleImages.self, from: bytes) {
                rows[row[0]] = try Row(settings: row[1], images: images)
            }
        }
        try db.execute(sql: "DROP TABLE bundles")
        try db.execute(sql: Self.bundlesTable)
        try insert(db, rows)
        try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Self.format])
    }

    private static let bundlesTable = """
        CREATE TABLE bundles(name TEXT PRIMARY KEY, settings TEXT NOT NULL, signature TEXT, count INTEGER NOT NULL,
                             known INTEGER NOT NULL, cover_known INTEGER NOT NULL, prefix TEXT,
                             failed INTEGER NOT NULL, high INTEGER NOT NULL, low INTEGER NOT NULL,
                             cover_high INTEGER, cover_low INTEGER,
                             cover BLOB, images BLOB NOT NULL) WITHOUT ROWID
        """

    private static func insert(_ db: Database, _ rows: [String: Row]) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO bundles(name, settings, signature, count, known, cover_known, prefix, failed, high, low,
                                           cover_high, cover_low, cover, images) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (name, row) in rows {
            let summary = row.summary
            let coverDigest = row.cover.map { ContentDigest(bytes: $0) }
            try statement.execute(arguments: [name, row.settings, summary.signature, summary.count, summary.imagesKnown,
                                              summary.coverKnown, summary.pathsPrefix, summary.failed,
                                              Int64(bitPattern: row.digest.high), Int64(bitPattern: row.digest.low),
                                              coverDigest.map { Int64(bitPattern: $0.high) }, coverDigest.map { Int64(bitPattern: $0.low) },
                                              row.cover, row.images])
        }
    }

    /// A bundle's row without its bytes: what a build decides to carry the bundle on.
    package struct Summary: Sendable {
        package let settings: String
        package let summary: BundleImages.Summary
        /// The digest of the row's bytes, checked when they are read (`bytes(of:)`), and of its
        /// cover's alone, checked when the cover is read alone (`cover(of:)`).
        package let digest: ContentDigest
        package let coverDigest: ContentDigest?
    }

    /// Every bundle's row without its bytes: the cover and images of a carried bundle are read
    /// by its name when a page asks (reading and checking every row's bytes was most of a
    /// one-comment sync's image step, and grew with the catalog).
    package func summaries() throws -> [String: Summary] {
        try queue.read { db in
            var rows: [String: Summary] = [:]
            let cursor = try GRDB.Row.fetchCursor(db, sql: """
                SELECT name, settings, signature, count, known, cover_known, prefix, failed, high, low, cover_high, cover_low
                FROM bundles
                """)
            while let row = try cursor.next() {
                let summary = BundleImages.Summary(signature: row[2], count: row[3], imagesKnown: row[4], coverKnown: row[5],
                                                   pathsPrefix: row[6], failed: row[7])
                rows[row[0]] = Summary(settings: row[1], summary: summary,
                                       digest: ContentDigest(high: UInt64(bitPattern: row[8]), low: UInt64(bitPattern: row[9])),
                                       coverDigest: (row[10] as Int64?).flatMap { high in
                                           (row[11] as Int64?).map { ContentDigest(high: UInt64(bitPattern: high), low: UInt64(bitPattern: $0)) }
                                       })
            }
            return rows
        }
    }

    /// The bytes of `name`'s row, when it is there and they are those it was written with.
    package func bytes(of name: String, digest: ContentDigest) -> (cover: Data?, images: Data)? {
        // A row that cannot be read is as damaged as one whose bytes changed: the caller says so.
        let read = try? queue.read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT cover, images FROM bundles WHERE name = ?", arguments: [name])
                .map { (cover: $0[0] as Data?, images: $0[1] as Data) }
        }
        guard let read = read ?? nil, Row.digest(cover: read.cover, images: read.images) == digest else { return nil }
        return read
    }

    /// Whether `bytes` are those of a row written with `digest`.
    package static func holds(_ bytes: (cover: Data?, images: Data), digest: ContentDigest) -> Bool {
        Row.digest(cover: bytes.cover, images: bytes.images) == digest
    }

    /// The composed cover's bytes of `name`'s row, when they are those it was written with: the
    /// catalog's cards and catalog.json ask for every machine's cover, not its images.
    package func cover(of name: String, digest: ContentDigest) -> Data? {
        // A cover that cannot be read is as damaged as one whose bytes changed: the caller says so.
        let read = try? queue.read { db in try Data.fetchOne(db, sql: "SELECT cover FROM bundles WHERE name = ?", arguments: [name]) }
        guard let read = read ?? nil, ContentDigest(bytes: read) == digest else { return nil }
        return read
    }

    /// Every bundle's row whole, bytes and all (what the tests look at).
    package func bundles() throws -> [String: Row] {
        let summaries = try summaries()
        return allBytes().reduce(into: [:]) { rows, row in
            guard let stored = summaries[row.key] else { return }
            rows[row.key] = Row(settings: stored.settings, summary: stored.summary, cover: row.value.cover,
                                images: row.value.images, digest: stored.digest)
        }
    }

    /// Every row's bytes, by name, in one read (checked by `StoredImageRow.take`).
    package func allBytes() -> [String: (cover: Data?, images: Data)] {
        // Rows that cannot be read here are read one by one when asked for, and found damaged then.
        (try? queue.read { db in
            var rows: [String: (cover: Data?, images: Data)] = [:]
            let cursor = try GRDB.Row.fetchCursor(db, sql: "SELECT name, cover, images FROM bundles")
            while let row = try cursor.next() { rows[row[0]] = (row[1], row[2]) }
            return rows
        }) ?? [:]
    }

    /// Forgets the rows of `names`: their bundles' images are looked up again by the next build.
    package func drop(_ names: [String]) {
        // The index is a memo: a row not dropped is found damaged again, and dropped then.
        try? queue.write { db in
            for name in names { try db.execute(sql: "DELETE FROM bundles WHERE name = ?", arguments: [name]) }
        }
    }

    /// The digest stored for the source at `path`, with the signature it was taken under.
    package func source(_ path: String) -> (signature: UInt64, digest: String)? {
        // The index is a memo: a row that cannot be read is a miss, and the source is read again.
        try? queue.read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT signature, digest FROM sources WHERE path = ?", arguments: [path])
                .map { (UInt64(bitPattern: $0[0] as Int64), $0[1]) }
        }
    }

    /// The stored digests of the sources at `paths`, or of every source (nil: a build that keys
    /// many images, a full one), in one query.
    package func sources(_ paths: [String]? = nil) -> [String: (signature: UInt64, digest: String)] {
        let sql = "SELECT path, signature, digest FROM sources"
            + (paths.map { " WHERE path IN (" + Array(repeating: "?", count: $0.count).joined(separator: ", ") + ")" } ?? "")
        // The index is a memo: rows that cannot be read are misses, and their sources are read again.
        return (try? queue.read { db in
            var sources: [String: (signature: UInt64, digest: String)] = [:]
            let rows = try GRDB.Row.fetchCursor(db, sql: sql, arguments: StatementArguments(paths ?? []))
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
        package var bundles: [String: Row] = [:]
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
            try Self.insert(db, changes.bundles)
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
