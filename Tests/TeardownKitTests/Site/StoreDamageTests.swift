import Foundation
import GRDB
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownMedia
@testable import TeardownBuild

/// A built copy of the minimal site with its build store, and what a full build makes of it.
private struct BuiltSite {
    let scratch: String
    let site: String
    var output: String { scratch + "/public" }
    var cache: String { scratch + "/cache" }

    init() throws {
        site = Fixtures.copy(Fixtures.site("minimal"))
        scratch = (site as NSString).deletingLastPathComponent
        try builder().build()
    }

    func builder(full: Bool = false, counters: BuildCounters = .none) -> SiteBuilder {
        SiteBuilder(siteRoot: site, output: output, full: full, cacheFolder: cache, pagefind: .notInstalled, counters: counters)
    }

    var store: String { CacheLayout(root: cache).output(output).store }

    /// A new paragraph in the lid's description: a change an incremental build renders.
    func edit(_ text: String) throws {
        let path = site + "/content/machines/box/parts/lid/description.md"
        try (Fixtures.read(path) + "\n\(text)\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The site as a full build from nothing makes it now.
    func fullBuild() throws -> [String: Data] {
        let folder = scratch + "/reference-\(UUID().uuidString)"
        try SiteBuilder(siteRoot: site, output: folder, full: true, cacheFolder: folder + ".cache", pagefind: .notInstalled).build()
        return try IncrementalBuildTests.snapshot(folder)
    }

    func published() throws -> [String: Data] { try IncrementalBuildTests.snapshot(output) }

    /// Runs `body` on the store, closed afterwards as a build leaves it.
    func withStore<T>(_ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }  // a test's own connection: a failed close changes no result
        return try queue.writeWithoutTransaction(body)
    }

    /// Overwrites the first page of `table` with bytes SQLite cannot read; the header and the
    /// schema stay intact.
    func damage(table: String) throws {
        let (root, pageSize) = try withStore { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = ?", arguments: [table]) ?? 0,
             try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
        }
        #expect(root > 1)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: store))
        try file.seek(toOffset: UInt64((root - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try file.close()
    }
}

@Suite("A damaged or hostile build store")
struct StoreDamageTests {
    @Test("Damage to any one table costs one build its state and nothing else: the build starts over once, says so, and the site is right",
          arguments: ["units", "pages", "bundles", "outputs", "lag", "trees"])
    func damagedTable(_ table: String) throws {
        let built = try BuiltSite()
        try built.edit("Filed after the damage.")
        try built.damage(table: table)
        let report = try built.builder().build()
        #expect(report.notices.contains(BuildStore.Notice.damaged.rawValue), "\(report.notices)")
        #expect(try built.published() == built.fullBuild())
        #expect(FileManager.default.fileExists(atPath: built.store + ".damaged"), "the damaged store is set aside for a look")
        try built.edit("And another.")
        let next = try built.builder().build()
        #expect(next.notices.isEmpty && next.written > 0 && next.written < report.written, "\(next.notices), \(next.written)")
        #expect(try built.published() == built.fullBuild())
    }

    @Test("An image row carried on its summary whose bytes changed is found by the page that reads it: the build starts over once, and the site is right")
    func damagedImageRow() throws {
        let built = try BuiltSite()
        // Out of the racy window, the row is made under the bundle's signature, and carried after.
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.2)
        try built.builder(full: true).build()
        let index = try #require(ImageIndex.open(CacheLayout(root: built.cache).images + "/index.sqlite"))
        let row = try #require(try index.bundles()["box"])
        var bytes = [UInt8](row.images)
        bytes[bytes.count / 2] ^= 0x20
        var changes = ImageIndex.Changes()
        changes.bundles["box"] = ImageIndex.Row(settings: row.settings, summary: row.summary, cover: row.cover, images: Data(bytes),
                                                digest: row.digest)
        // The entries stay vouched for: the damage is found only when a page reads the row.
        changes.entriesStamp = index.entriesStamp()
        index.write(changes)
        // A template edited: the box's bundle is as it was, its row carried, its part pages rendered.
        let template = try String(contentsOfFile: Fixtures.demoSite + "/Themes/default/templates/part.mustache", encoding: .utf8)
        try FileManager.default.createDirectory(atPath: built.site + "/Themes/default/templates", withIntermediateDirectories: true)
        try template.replacingOccurrences(of: "{{name}}</h1>", with: "{{name}}</h1><p>Drawn again.</p>")
            .write(toFile: built.site + "/Themes/default/templates/part.mustache", atomically: true, encoding: .utf8)
        let counts = Counts()
        let report = try built.builder(counters: counts.counters).build()
        #expect(report.notices.contains { $0.contains("index was damaged for box") }, "\(report.notices)")
        #expect(counts[.imagesLookedUp] > 0, "the box's images looked up again")
        #expect(try built.published() == built.fullBuild())
        #expect(try #require(try index.bundles()["box"]).isWhole, "the row written again")
    }

    @Test("A machine summary the store cannot give back (damaged, or naming a URL no build writes) is made from the machine: the site is right")
    func damagedSummary() throws {
        let built = try BuiltSite()
        // Out of the racy window, the box's row is written under its bundle's signature, and its summary read back after.
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.2)
        try built.builder(full: true).build()
        let stored = try built.withStore { db in try Data.fetchOne(db, sql: "SELECT summary FROM bundles WHERE slug = 'box'") }
        let bytes = try #require(stored)
        let summary = try #require(MachineSummary(encoded: [UInt8](bytes)))
        let hostile = MachineSummary(slug: summary.slug, name: summary.name, canvas: summary.canvas, composed: summary.composed,
                                     cover: summary.cover, parts: summary.parts.map { part in
            MachineSummary.Part(slug: part.slug, name: part.name, tags: part.tags, z: part.z, box: part.box,
                                layer: "a.svg\"); background: url(\"https://example.com/", opaque: part.opaque)
        })
        let folder = built.site + "/Themes/default/templates"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let parts = try String(contentsOfFile: Fixtures.demoSite + "/Themes/default/templates/parts.mustache", encoding: .utf8)
        for (number, row) in [Data([0xFF, 0x00, 0x01]), Data(hostile.encoded)].enumerated() {
            try built.withStore { db in try db.execute(sql: "UPDATE bundles SET summary = ?", arguments: [row]) }
            // A listing template edited: the A-Z pages are drawn again from the box's summary, the box is not digested.
            try (parts + "<!-- edit \(number) -->").write(toFile: folder + "/parts.mustache", atomically: true, encoding: .utf8)
            let counts = Counts()
            try built.builder(counters: counts.counters).build()
            #expect(counts[.machinesDigested] == 0)
            #expect(counts[.summariesRead] == 0 && counts[.summariesMade] >= 1, "row \(number)")
            #expect(try built.published() == built.fullBuild(), "row \(number)")
        }
    }

    @Test("Damage where a build does not look (an index it only writes, the input snapshot) leaves every build right until it is found",
          arguments: ["bundles_by_slug", "inputs", "meta"])
    func latentDamage(_ table: String) throws {
        let built = try BuiltSite()
        try built.damage(table: table)
        for round in 1...3 {
            try built.edit("Round \(round).")
            _ = try built.builder().build()
            #expect(try built.published() == built.fullBuild(), "round \(round)")
        }
        // Gone, as a sync's takedown does: the machine's rows are deleted, through the damaged index.
        try FileManager.default.removeItem(atPath: built.site + "/content/machines/box/parts/lid/comments")
        _ = try built.builder().build()
        #expect(try built.published() == built.fullBuild())
    }

    @Test("After a full build, or one whose store knew nothing of the published tree, the next build links nothing into the spare")
    func mirrorAfterFullBuild() throws {
        let built = try BuiltSite()
        try built.edit("Built in full.")
        try built.builder(full: true).build()
        try built.edit("Built after the full one.")
        let counts = Counts()
        #expect(try built.builder(counters: counts.counters).build().written > 0)
        #expect(counts[.outputsCarried] == 0, "\(counts[.outputsCarried]) outputs linked into the spare")
        #expect(try built.published() == built.fullBuild())
        try BuildStore.remove(built.store)
        try built.edit("Built with a new store.")
        try built.builder().build()
        try built.edit("And once more.")
        let again = Counts()
        try built.builder(counters: again.counters).build()
        #expect(again[.outputsCarried] == 0)
        #expect(try built.published() == built.fullBuild())
    }

    @Test("A store of this format whose tables have another shape is damage too; --full always starts from a new store")
    func otherShape() throws {
        let built = try BuiltSite()
        try built.withStore { db in
            try db.execute(sql: """
                DROP TABLE units;
                CREATE TABLE units(key TEXT PRIMARY KEY, hi INTEGER NOT NULL, lo INTEGER NOT NULL, readers BLOB NOT NULL) WITHOUT ROWID
                """)
        }
        try built.edit("Filed after the change of shape.")
        let report = try built.builder().build()
        #expect(report.notices.contains(BuildStore.Notice.damaged.rawValue), "\(report.notices)")
        #expect(try built.published() == built.fullBuild())

        try built.damage(table: "pages")
        try built.edit("Built in full.")
        #expect(try built.builder(full: true).build().written > 0)
        #expect(try built.published() == built.fullBuild())
        try built.edit("Built after the full one.")
        #expect(try built.builder().build().notices.isEmpty)
    }

    @Test("Stored paths that leave the output are damage: no file outside the site is deleted")
    func hostilePaths() throws {
        let built = try BuiltSite()
        let victims = built.scratch + "/victims"
        try FileManager.default.createDirectory(atPath: victims + "/kept", withIntermediateDirectories: true)
        for name in ["published.txt", "spare.txt", "lag.txt", "kept/inner.txt"] {
            try Data("mine\n".utf8).write(to: URL(fileURLWithPath: victims + "/" + name))
        }
        try built.withStore { db in
            let trees = try String.fetchAll(db, sql: "SELECT identity FROM trees")
            #expect(trees.count == 2, "the published tree and its mirror")
            for (tree, name) in zip(trees, ["published.txt", "spare.txt"]) {
                for path in ["../victims/\(name)", "../victims/kept/inner.txt", "/\(victims)/\(name)"] {
                    try db.execute(sql: "INSERT OR REPLACE INTO outputs(tree, path, high, low) VALUES (?, ?, 1, 1)",
                                   arguments: [tree, path])
                }
            }
            try db.execute(sql: "INSERT INTO lag(path) VALUES ('../victims/lag.txt'), ('a/./b')")
        }
        try built.edit("Filed after the rows were planted.")
        let report = try built.builder().build()
        #expect(report.notices.contains(BuildStore.Notice.damaged.rawValue), "\(report.notices)")
        for name in ["published.txt", "spare.txt", "lag.txt", "kept/inner.txt"] {
            #expect(FileManager.default.fileExists(atPath: victims + "/" + name), "\(name) was deleted")
        }
        #expect(try built.published() == built.fullBuild())
    }

    @Test("A store another process holds is waited for, not taken for damage, and that process's commit is kept")
    func heldStore() throws {
        let built = try BuiltSite()
        let holder = try DatabaseQueue(path: built.store)
        let held = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // A `sqlite3` shell's BEGIN EXCLUSIVE, a second and a half long.
            try? holder.inTransaction(.exclusive) { db in  // a failure shows as the missing row below
                try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('note', 'kept')")
                held.signal()
                Thread.sleep(forTimeInterval: 1.5)
                return .commit
            }
            done.signal()
        }
        held.wait()
        try built.edit("Built while the store was held.")
        let told = Locked([Int]())
        let report = try built.builder().build(progress: { progress in
            if progress.stage == .waiting { told.withLock { $0.append(progress.done) } }
        })
        done.wait()
        #expect(!report.notices.contains(BuildStore.Notice.damaged.rawValue), "\(report.notices)")
        #expect(told.withLock { $0 }.first == 1, "the wait is told after a second: \(told.withLock { $0 })")
        #expect(try holder.read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE name = 'note'") } == "kept")
        #expect(try built.published() == built.fullBuild())
    }
}
