import Foundation
import GRDB
import Testing
@testable import TeardownBase
@testable import TeardownBuild

@Suite("The published manifest read by path")
struct StoredManifestTests {
    /// A store in `folder` whose tree "published" holds `count` outputs, and one other tree holding the same paths.
    static func store(in folder: String, count: Int) throws -> BuildStore {
        let path = folder + "/store.sqlite"
        let (store, _) = try BuildStore.open(path)
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }  // a test's own connection: a failed close changes no result
        try queue.write { db in
            for index in 0..<count {
                for (tree, low) in [("published", index), ("spare", index + 1)] {
                    try db.execute(sql: "INSERT INTO outputs(tree, path, high, low) VALUES (?, ?, ?, ?)",
                                   arguments: [tree, "tags/t\(index)/index.html", 7, low])
                }
            }
        }
        return store
    }

    @Test("Paths asked for in more than one batch find every row the tree holds, of that tree, and no row it does not")
    func batches() throws {
        let folder = Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }  // a leftover scratch folder changes no result
        let store = try Self.store(in: folder, count: 1_200)
        let counts = Counts()
        // Every third path, past the last row too, and one asked twice: three batches' worth.
        let asked = stride(from: 0, to: 1_400, by: 1).filter { $0 % 3 != 1 }.map { "tags/t\($0)/index.html" } + ["tags/t0/index.html"]
        let found = try store.counting(counts.counters).outputs(of: "published", at: asked)
        let expected = Dictionary(uniqueKeysWithValues: (0..<1_200).filter { $0 % 3 != 1 }
            .map { ("tags/t\($0)/index.html", ContentDigest(high: 7, low: UInt64($0))) })
        let wrong = expected.keys.filter { found[$0] != expected[$0] }.sorted()
        let extra = found.keys.filter { expected[$0] == nil }.sorted()
        #expect(wrong.isEmpty && extra.isEmpty, "missing or wrong: \(wrong.prefix(3)) of \(wrong.count); not asked for: \(extra.prefix(3))")
        #expect(counts[.manifestRowsRead] == expected.count)
        #expect(try store.outputs(of: "published", at: []).isEmpty)
    }
}
