import Foundation
import GRDB
import TeardownBase

extension BuildStore {
    /// What a publish changes, for `record`.
    package struct Publish {
        /// The tree about to be published, and what it holds now.
        package let tree: String
        package let outputs: OutputTargets
        /// What the store held for that tree: only rows that differ are written.
        package let previous: Spare?
        /// What each page rendered by this build read; the other pages read what they did.
        package let rendered: PageReads
        /// The tree published until now (identity) and its outputs, when known.
        package let publishedTree: String?
        package let published: StoredManifest?
        /// The paths where `outputs` differs from `published` (every path when it is unknown).
        package let changes: Set<String>
        /// Whether the reads the store holds are the published tree's: when not, they are written anew.
        package let readsKnown: Bool
        /// The digest of every unit this build worked out; the units of carried machines keep theirs.
        package let current: [String: ContentDigest]
        /// The units whose digest differs from the stored one (new and gone ones too), found
        /// once by the fingerprint step.
        package let changedUnits: [String]
        /// The bundles whose units this build digested.
        package let bundles: Bundles
        /// What the build changed of the first-answer index.
        package let firstAnswer: FirstAnswerChange?
        /// What the published search shards were indexed under (`SearchShards.layout` and the
        /// indexer), when every shard is its pages' index; nil when one lags behind its pages
        /// (the pages were published first) or the site has no index.
        package var searchLayout: String? = nil
        /// What the build changed of the shards' rows, written with the layout.
        package var shards: ShardChange? = nil
        /// The token of the site feed's items the build kept, when it made the feed (`FeedEntries`).
        package var feedToken: String? = nil
    }

    /// The token of the site feed's kept items as last published.
    package func feedToken() throws -> String? {
        try reading { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'feed-entries'") }
    }

    /// What the published search shards were indexed under; nil when not known to be current.
    package func searchLayout() throws -> String? {
        try reading { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'search-layout'") }
    }

    /// What a build learnt of the bundles: under which settings (`context`), which bundles'
    /// units it digested with a signature the next build can trust, which it digested without
    /// one, and which machines are gone.
    package struct Bundles {
        package typealias Digested = (name: String, slug: String, signature: ContentDigest, counts: SitePlan.MachineCounts,
                                      summary: [UInt8], catalog: [UInt8])
        package let context: ContentDigest
        package let digested: [Digested]
        package let unsettled: [String]
        package let goneSlugs: [String]
        /// The unsettled bundles with the rows they get if they settle by the end of the build
        /// (`SiteBuilder.settle`).
        package var racy: [Digested] = []
    }

    /// Records the rows of racy bundles that have since settled as they were when this build
    /// digested them (`SiteBuilder.settle`), if the store still holds units of `context`.
    package func recordSettled(_ bundles: [Bundles.Digested], context: ContentDigest) throws {
        guard !bundles.isEmpty else { return }
        try writing { db in
            guard try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'unit-context'") == context.description else { return }
            try Self.upsert(db, bundles)
        }
    }

    /// Records `change` in one transaction: the tree's manifest, and the reads of its pages.
    /// Records `spare` as a copy of the published tree: its manifest is the published one's, and
    /// it lags behind it nowhere.
    package func recordMirror(published: String, spare: String) throws {
        do {
            try writing { db in
                try db.execute(sql: "DELETE FROM outputs WHERE tree = ?; DELETE FROM lag", arguments: [spare])
                try db.execute(sql: "INSERT INTO outputs(tree, path, high, low) SELECT ?, path, high, low FROM outputs WHERE tree = ?",
                               arguments: [spare, published])
                try db.execute(sql: "INSERT OR REPLACE INTO trees(identity, whole, count) SELECT ?, 1, count FROM trees WHERE identity = ?",
                               arguments: [spare, published])
                try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('lag-pair', ?)",
                               arguments: [published + " " + spare])
            }
        } catch let damage as Damaged {
            throw damage
        } catch {
            throw FileSystem.Failure(path: path, error)
        }
    }

    package func record(_ change: Publish) throws {
        // A failure here (a full disk, say) fails the build, and names the file it could not write.
        do { try write(change) } catch let damage as Damaged { throw damage } catch { throw FileSystem.Failure(path: path, error) }
    }

    func write(_ change: Publish) throws {
        // Every published row the transaction compares is read before it (a read inside would
        // wait on the write): the changes' and the lag's; a tree the store knew nothing of is
        // written whole.
        let lagging: [String] = if case .lagging(let lag)? = change.previous { Array(lag.keys) } else { [] }
        try change.published?.fetch(change.changes.union(lagging))
        try change.published?.check()
        let whole: [String: ContentDigest]? = switch change.previous {
        case .whole?: try change.outputs.all()
        case .lagging? where change.published != nil: nil
        default: try change.outputs.all()
        }
        try writing { db in
            let tree = change.tree
            try Self.writeOutputs(db, change, whole: whole)

            if change.readsKnown, change.published != nil {
                try Self.update(db, change)
            } else {
                try Self.rewrite(db, change)
            }
            // After the swap, the tree published until now is the spare: it differs from this one at the changes.
            try db.execute(sql: "DELETE FROM lag")
            if let before = change.publishedTree, change.published != nil {
                let insert = try db.cachedStatement(sql: "INSERT INTO lag(path) VALUES (?)")
                for path in change.changes where change.outputs[path] != change.published?[path] {
                    try insert.execute(arguments: [path])
                }
                try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('lag-pair', ?)", arguments: [tree + " " + before])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE name = 'lag-pair'")
            }
            try Self.record(db, change.bundles, whole: change.published == nil)
            try Self.record(db, change.firstAnswer)
            if let layout = change.searchLayout {
                try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('search-layout', ?)", arguments: [layout])
                if let shards = change.shards { try Self.record(db, shards) }
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE name = 'search-layout'")
            }
            if let token = change.feedToken {
                try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('feed-entries', ?)", arguments: [token])
            }
            try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('reads-tree', ?)", arguments: [tree])
        }
    }

    /// The tree's manifest: the rows that differ from what it held, or every row when that is
    /// unknown (`whole`, the outputs read whole), and its count.
    static func writeOutputs(_ db: Database, _ change: Publish, whole: [String: ContentDigest]?) throws {
        let tree = change.tree
        let upsert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO outputs(tree, path, high, low) VALUES (?, ?, ?, ?)")
        let delete = try db.cachedStatement(sql: "DELETE FROM outputs WHERE tree = ? AND path = ?")
        switch change.previous {
        case .whole(let previous)?:
            let outputs = whole ?? [:]
            for (path, digest) in outputs where previous[path] != digest {
                try upsert.execute(arguments: [tree, path] + Self.columns(digest))
            }
            for path in previous.keys where outputs[path] == nil { try delete.execute(arguments: [tree, path]) }
        case .lagging(let lag)? where change.published != nil:
            // The tree held the published outputs but at the lag's paths; it now holds them but at the changes'.
            for path in change.changes.union(lag.keys) {
                let held = lag[path] ?? change.published?[path]
                guard let digest = change.outputs[path] else {
                    if held != nil { try delete.execute(arguments: [tree, path]) }
                    continue
                }
                if held != digest { try upsert.execute(arguments: [tree, path] + Self.columns(digest)) }
            }
        default:
            try db.execute(sql: "DELETE FROM outputs WHERE tree = ?", arguments: [tree])
            let insert = try db.cachedStatement(sql: "INSERT INTO outputs(tree, path, high, low) VALUES (?, ?, ?, ?)")
            for (path, digest) in whole ?? [:] {
                try insert.execute(arguments: [tree, path] + Self.columns(digest))
            }
        }
        try db.execute(sql: "INSERT OR REPLACE INTO trees(identity, whole, count) VALUES (?, 1, ?)",
                       arguments: [tree, whole?.count ?? change.outputs.count])
    }

    /// The reads of the pages this build rendered or removed, and the readers of the units
    /// whose set of readers that changed: a page that read what it read before costs one lookup.
    static func update(_ db: Database, _ change: Publish) throws {
        var added: [String: Set<Int64>] = [:], removed: [String: Set<Int64>] = [:]
        let find = try db.cachedStatement(sql: "SELECT id, reads FROM pages WHERE path = ?")
        let insert = try db.cachedStatement(sql: "INSERT INTO pages(path, reads) VALUES (?, ?)")
        let rewrite = try db.cachedStatement(sql: "UPDATE pages SET reads = ? WHERE id = ?")
        let forget = try db.cachedStatement(sql: "DELETE FROM pages WHERE id = ?")
        let keys = change.rendered.keys.byNumber
        for (page, reads) in change.rendered.pages where change.outputs[page] != nil {
            let text = PageReads.text(reads, keys: keys)
            if let row = try Row.fetchOne(find, arguments: [page]) {
                let id: Int64 = row[0], before: String = row[1]
                guard before != text else { continue }
                let old = Set(Self.keys(before)), new = Set(reads.map { keys[Int($0)] })
                for key in new.subtracting(old) { added[key, default: []].insert(id) }
                for key in old.subtracting(new) { removed[key, default: []].insert(id) }
                try rewrite.execute(arguments: [text, id])
            } else {
                try insert.execute(arguments: [page, text])
                let id = db.lastInsertedRowID
                for number in reads { added[keys[Int(number)], default: []].insert(id) }
            }
        }
        for page in change.changes where change.outputs[page] == nil {
            guard let row = try Row.fetchOne(find, arguments: [page]) else { continue }
            let id: Int64 = row[0]
            for key in Self.keys(row[1]) { removed[key, default: []].insert(id) }
            try forget.execute(arguments: [id])
        }
        let readers = try db.cachedStatement(sql: "SELECT readers FROM units WHERE key = ?")
        let upsert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO units(key, high, low, readers) VALUES (?, ?, ?, ?)")
        // A carried unit keeps its digest; one the store lacks gets none, so it counts as changed next time.
        let readersOnly = try db.cachedStatement(sql: """
            INSERT INTO units(key, high, low, readers) VALUES (?, 0, 0, ?)
            ON CONFLICT(key) DO UPDATE SET readers = excluded.readers
            """)
        let digestOnly = try db.cachedStatement(sql: """
            INSERT INTO units(key, high, low, readers) VALUES (?, ?, ?, x'')
            ON CONFLICT(key) DO UPDATE SET high = excluded.high, low = excluded.low
            """)
        let drop = try db.cachedStatement(sql: "DELETE FROM units WHERE key = ?")
        let gone = change.changedUnits.filter { change.current[$0] == nil }
        for key in gone { try drop.execute(arguments: [key]) }
        let touched = Set(added.keys).union(removed.keys).subtracting(gone)
        for key in touched {
            var ids = Set(try Data.fetchOne(readers, arguments: [key]).map(Self.pageIDs) ?? [])
            ids.formUnion(added[key] ?? [])
            ids.subtract(removed[key] ?? [])
            if let digest = change.current[key] {
                try upsert.execute(arguments: [key] + Self.columns(digest) + [Self.blob(ids)])
            } else {
                try readersOnly.execute(arguments: [key, Self.blob(ids)])
            }
        }
        for key in change.changedUnits where !touched.contains(key) {
            guard let digest = change.current[key] else { continue }
            try digestOnly.execute(arguments: [key] + Self.columns(digest))
        }
    }

    /// The bundle rows after a build: `whole` when its units were all written anew.
    static func record(_ db: Database, _ bundles: Bundles, whole: Bool) throws {
        let context = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'unit-context'")
        if whole || context != bundles.context.description {
            try db.execute(sql: "DELETE FROM bundles")
            try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('unit-context', ?)",
                           arguments: [bundles.context.description])
        }
        try upsert(db, bundles.digested)
        let forget = try db.cachedStatement(sql: "DELETE FROM bundles WHERE name = ?")
        for name in bundles.unsettled { try forget.execute(arguments: [name]) }
        let forgetSlug = try db.cachedStatement(sql: "DELETE FROM bundles WHERE slug = ?")
        for slug in bundles.goneSlugs { try forgetSlug.execute(arguments: [slug]) }
    }

    private static func upsert(_ db: Database, _ bundles: [Bundles.Digested]) throws {
        let upsert = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO bundles(name, slug, high, low, pages, copies, listed, photos, indexed, summary, catalog)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for bundle in bundles {
            let counts = bundle.counts
            try upsert.execute(arguments: [bundle.name, bundle.slug] + Self.columns(bundle.signature)
                               + [counts.pages, counts.copies, counts.listed, counts.photos, counts.indexed, Data(bundle.summary),
                                  Data(bundle.catalog)])
        }
    }

    /// Every page's reads and every unit's readers anew, as after a full render.
    static func rewrite(_ db: Database, _ change: Publish) throws {
        try db.execute(sql: "DELETE FROM pages; DELETE FROM units; DELETE FROM bundles")
        let (keys, numbers) = change.rendered.keys
        let pages = change.rendered.pages
        // Each unit's readers by the unit's number, all in one array: counted first, then laid
        // in place. Keyed by string they were a second copy of every key, and an array a unit
        // cost more than the ids in it.
        var starts = [Int](repeating: 0, count: keys.count + 1)
        for (page, reads) in pages where change.outputs[page] != nil {
            for number in reads { starts[Int(number) + 1] += 1 }
        }
        for number in keys.indices { starts[number + 1] += starts[number] }
        var readers = [UInt32](repeating: 0, count: starts[keys.count])
        var next = starts
        let insert = try db.cachedStatement(sql: "INSERT INTO pages(id, path, reads) VALUES (?, ?, ?)")
        var id: UInt32 = 0
        for (page, reads) in pages where change.outputs[page] != nil {
            id += 1
            try insert.execute(arguments: [Int64(id), page, PageReads.text(reads, keys: keys)])
            for number in reads {
                readers[next[Int(number)]] = id
                next[Int(number)] += 1
            }
        }
        let unit = try db.cachedStatement(sql: "INSERT INTO units(key, high, low, readers) VALUES (?, ?, ?, ?)")
        for (key, digest) in change.current {
            let read = numbers[key].map { readers[starts[Int($0)]..<starts[Int($0) + 1]] } ?? []
            try unit.execute(arguments: [key] + Self.columns(digest) + [Self.blob(read)])
        }
    }
}
