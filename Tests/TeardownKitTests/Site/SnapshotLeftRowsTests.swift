import Foundation
import GRDB
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

/// The stored snapshot checked row by row: a bundle found as stored is left in the build store
/// and read back only when a change reaches it.
@Suite("Snapshot rows left in the store")
struct SnapshotLeftRowsTests {
    /// A settled catalog of three machines, built once; `comment` files a comment into one.
    struct Catalog {
        let site: String
        let output: String
        let counts = Counts()
        let builder: SiteBuilder

        init() throws {
            site = Fixtures.copy(Fixtures.site("minimal"))
            let machines = site + "/content/machines"
            try FileManager.default.copyItem(atPath: machines + "/box", toPath: machines + "/crate")
            try FileManager.default.copyItem(atPath: machines + "/box", toPath: machines + "/drum")
            // Out of the racy window, as a publisher's catalog is between syncs.
            Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.1)
            output = site + "/public"
            builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled,
                                  counters: counts.counters)
            try builder.build()
        }

        /// Writes a comment on crate's lid, as sync files one, and returns its path.
        func comment(_ text: String) throws -> String {
            let path = site + "/content/machines/crate/parts/lid/comments/left-rows.md"
            try "---\nauthor: Ada\ndate: 2024-05-02\n---\n\(text)\n".write(toFile: path, atomically: false, encoding: .utf8)
            // Dated out of the racy window, with its folder: whether a walk takes a file as racy
            // depends on when it runs, and a build slowed by a busy machine would otherwise find
            // the file racy while the walk after it does not.
            let past = Date(timeIntervalSinceNow: -(InputSnapshot.racyWindow + 1))
            for written in [path, (path as NSString).deletingLastPathComponent] {
                try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: written)
            }
            return path
        }

        var store: String {
            get throws {
                try #require(FileManager.default.enumerator(atPath: output + ".cache/outputs")?.allObjects
                    .compactMap { $0 as? String }.first { $0.hasSuffix("/state.sqlite") }.map { output + ".cache/outputs/" + $0 })
            }
        }

        /// Whether a published page shows `text`.
        func published(_ text: String) -> Bool {
            let pages = FileManager.default.enumerator(atPath: output)?.allObjects.compactMap { $0 as? String } ?? []
            return pages.contains { $0.hasSuffix(".html") && (try? String(contentsOfFile: output + "/" + $0, encoding: .utf8))?.contains(text) == true }
        }

        /// The look at the inputs equals a walk of them.
        func equalsWalk() throws -> Bool {
            let current = try #require(builder.walkInputs().snapshot)
            let walked = try #require(InputSnapshot.take(roots: builder.inputRoots, key: current.key))
            return current.sameEntries(as: walked) && current.bundleSignatures().all == walked.bundleSignatures().all
        }
    }

    @Test("A look that finds the catalog as stored keeps none of its bundles' rows; a comment reads back its own alone")
    func commentReadsItsRow() throws {
        let catalog = try Catalog()
        let counts = catalog.counts
        let inputs = catalog.builder.walkInputs()
        let snapshot = try #require(inputs.snapshot)
        #expect(inputs.unchanged != nil)
        #expect(Set(snapshot.leftInStore.keys) == ["box", "crate", "drum"], "every settled bundle is left in the store")
        let queue = try DatabaseQueue(path: try catalog.store)
        let rest = try queue.read { try Int.fetchOne($0, sql: "SELECT length(lines) FROM inputs WHERE grp = ''") }
        try queue.close()
        #expect(counts[.snapshotBytesKept] == rest, "only the lines of no bundle are kept")
        #expect(counts[.snapshotBytesKept] < counts[.snapshotBytesRead])
        let fetchedBefore = counts[.snapshotRowsFetched]
        let report = try catalog.builder.build(inputs: inputs, changed: [try catalog.comment("Left rows, read back.")])
        #expect(report.written > 0)
        #expect(counts[.snapshotRowsFetched] - fetchedBefore == 1, "the commented bundle's row alone is read back")
        #expect(catalog.published("Left rows, read back."))
        #expect(try catalog.equalsWalk(), "what the build stored is what a walk finds")
    }

    /// Rows the look left in the store are not rewritten by the build: if they are gone by then
    /// (a store made anew meanwhile), the snapshot is not stored without them; the next look walks.
    @Test("A left row gone from the store before the build stores its snapshot makes the next look walk")
    func goneRowIsNotLost() throws {
        let catalog = try Catalog()
        let inputs = catalog.builder.walkInputs()
        #expect(inputs.snapshot?.leftInStore["drum"] != nil)
        let queue = try DatabaseQueue(path: try catalog.store)
        try queue.write { try $0.execute(sql: "DELETE FROM inputs WHERE grp = 'drum'") }
        try queue.close()
        try catalog.builder.build(inputs: inputs, changed: [try catalog.comment("Stored whole or not at all.")])
        #expect(catalog.published("Stored whole or not at all."))
        let walksBefore = catalog.counts[.inputWalks]
        #expect(try catalog.equalsWalk())
        #expect(catalog.counts[.inputWalks] == walksBefore + 1, "the snapshot was forgotten, not stored without drum")
    }
}
