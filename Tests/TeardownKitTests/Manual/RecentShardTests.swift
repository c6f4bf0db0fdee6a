import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

@Suite("The recent shard of a sharded search index")
struct RecentShardTests {
    /// What a search over a built site finds, page by page: each result's fragment (Pagefind's
    /// JSON of the page) by URL, the recent shard's standing in for the results the search page
    /// says it supersedes, as the page's script reads them.
    static func searched(_ output: String) throws -> [String: String] {
        let page = Fixtures.read(output + "/search/index.html")
        let attribute = page.firstMatch(of: /data-superseded="([^"]*)"/).map { String($0.1) } ?? "{}"
        let json = [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")]
            .reduce(attribute) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
        let superseded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var found: [String: String] = [:]
        let folders = try FileManager.default.contentsOfDirectory(atPath: output + "/pagefind").sorted { a, _ in a != "recent" }
        for folder in folders {
            let fragments = output + "/pagefind/" + folder + "/fragment"
            for name in try FileManager.default.contentsOfDirectory(atPath: fragments) {
                let hash = String(name.dropLast(".pf_fragment".count))
                if folder != "recent", superseded[hash] != nil { continue }
                let data = try #require(Gzip.decompress(try Data(contentsOf: URL(fileURLWithPath: fragments + "/" + name))))
                let text = String(decoding: data.dropFirst("pagefind_dcd".count), as: UTF8.self)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                let url = try #require(object["url"] as? String)
                if folder != "recent" { #expect(found[url] == nil, "\(url) has one result in the shards") }
                found[url] = text
            }
        }
        return found
    }

    static func recentURLs(_ output: String) throws -> Set<String> {
        let fragments = output + "/pagefind/recent/fragment"
        guard TextFile.exists(output + "/pagefind/recent/pagefind-entry.json") else { return [] }
        return Set(try FileManager.default.contentsOfDirectory(atPath: fragments).map { name in
            let data = try #require(Gzip.decompress(try Data(contentsOf: URL(fileURLWithPath: fragments + "/" + name))))
            let object = try JSONSerialization.jsonObject(with: data.dropFirst("pagefind_dcd".count)) as? [String: Any]
            return try #require(object?["url"] as? String)
        })
    }

    @Test("A comment with a sharded index plans only its machine and indexes only its pages, in the recent shard, until that is full; search then finds what a full build's does")
    func commentsGoToTheRecentShard() throws {
        let site = Fixtures.temporaryFolder()
        try FileManager.default.copyItem(atPath: Fixtures.demoSite + "/content", toPath: site + "/content")
        let machines = site + "/content/machines/"
        for number in 2...6 { try FileManager.default.copyItem(atPath: machines + "desk-fan", toPath: machines + "fan-\(number)") }
        let settings = site + "/content/site.yaml"
        let limit = 6
        // One comment a page: discussions run to later pages, which Pagefind reads joined to the first.
        try (Fixtures.read(settings).replacingOccurrences(of: "comments_per_page: 5", with: "comments_per_page: 1")
             + "search_shards: 4\nsearch_recent: \(limit)\n").write(toFile: settings, atomically: true, encoding: .utf8)
        // Bundles changed in the last two seconds are not vouched for by their signatures: each
        // build waits for the change before it to settle.
        func settle() { Thread.sleep(forTimeInterval: 2.2) }
        settle()
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, counters: counts.counters)
        try builder.build()
        let output = site + "/public"
        let folders = try FileManager.default.contentsOfDirectory(atPath: output + "/pagefind").sorted()
        #expect(folders.count > 1 && !folders.contains("recent"))
        func entries() -> [String: UInt64?] {
            Dictionary(uniqueKeysWithValues: folders.map { ($0, SearchIndexTests.inode(output + "/pagefind/\($0)/pagefind-entry.json")) })
        }
        let before = entries(), whole = counts[.wholePlans]

        // A comment: fan-3 alone is planned, no shard is indexed again, and its pages are in the recent shard.
        var planned = counts[.machinesPlanned]
        try "---\nauthor: Ada\ndate: 2026-11-01\n---\nThe quixotic blade guard rattles.\n"
            .write(toFile: machines + "fan-3/comments/2026-11-01-ada.md", atomically: true, encoding: .utf8)
        settle()
        let steps = try builder.build().timings.map(\.step).filter { [.publish, .index, .publishSearch].contains($0) }
        #expect(steps == [.publish, .index, .publishSearch], "the pages published first, the index after")
        #expect(counts[.machinesPlanned] - planned == 1, "fan-3 alone")
        #expect(counts[.wholePlans] == whole)
        #expect(entries() == before, "no shard is indexed again")
        let recent = try Self.recentURLs(output)
        #expect(!recent.isEmpty && recent.allSatisfy { $0.hasPrefix("/machines/fan-3/") }, "\(recent)")
        let page = Fixtures.read(output + "/search/index.html")
        #expect(page.contains("../pagefind/recent/") && page.contains("data-superseded="))
        #expect(try Self.searched(output)["/machines/fan-3/"]?.contains("quixotic") == true)

        // A manual page joins it.
        planned = counts[.machinesPlanned]
        let manualPage = site + "/content/manual/search.md"
        try (Fixtures.read(manualPage) + "\nA quixotic footnote.\n").write(toFile: manualPage, atomically: true, encoding: .utf8)
        settle()
        try builder.build()
        #expect(counts[.machinesPlanned] == planned)
        #expect(entries() == before)
        #expect(try Self.recentURLs(output) == recent.union(["/manual/search/"]))

        // Comments on other machines until the recent shard is past its limit: the shard with most
        // of its pages is indexed again (its machines planned), and they leave the recent shard.
        var compacted = false
        for (round, slug) in ["desk-fan", "fan-2", "fan-4", "fan-5", "fan-6", "fan-2", "fan-4", "fan-5"].enumerated() where !compacted {
            let count = try Self.recentURLs(output).count
            try "---\nauthor: Bo\ndate: 2026-11-0\(round + 2)\n---\nA zealous note \(round).\n"
                .write(toFile: machines + "\(slug)/comments/2026-11-0\(round + 2)-bo.md", atomically: true, encoding: .utf8)
            planned = counts[.machinesPlanned]
            settle()
            try builder.build()
            let now = try Self.recentURLs(output)
            #expect(now.count <= limit, "the recent shard holds at most \(limit) pages")
            if now.count < count {
                compacted = true
                let changed = folders.filter { entries()[$0]! != before[$0]! }
                #expect(changed.count == 1, "one shard indexed again: \(changed)")
                #expect(counts[.machinesPlanned] - planned > 1, "the machines of that shard")
            } else {
                #expect(counts[.machinesPlanned] - planned == 1)
                #expect(entries() == before)
            }
        }
        #expect(compacted, "the recent shard reached its limit of \(limit) pages")
        #expect(counts[.wholePlans] == whole)

        let reference = site + "/reference"
        try SiteBuilder(siteRoot: site, output: reference, full: true).build()
        #expect(try IncrementalBuildTests.snapshot(output) == (try IncrementalBuildTests.snapshot(reference)))
        #expect(try Self.recentURLs(reference).isEmpty)
        let searched = try Self.searched(output), full = try Self.searched(reference)
        #expect(searched.keys.sorted() == full.keys.sorted())
        for (url, fragment) in full { #expect(searched[url] == fragment, "\(url) is found as a full build's index has it") }
    }

    @Test("A build of every machine (site.yaml changed) indexes the shards the recent shard stood in for, and drops it")
    func fullPlanDropsTheRecentShard() throws {
        let site = Fixtures.temporaryFolder()
        try FileManager.default.copyItem(atPath: Fixtures.demoSite + "/content", toPath: site + "/content")
        let settings = site + "/content/site.yaml"
        try (Fixtures.read(settings) + "search_shards: 4\n").write(toFile: settings, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 2.2)
        let builder = SiteBuilder(siteRoot: site)
        try builder.build()
        let output = site + "/public"
        let comment = site + "/content/machines/desk-fan/comments/2026-11-01-ada.md"
        try "---\nauthor: Ada\ndate: 2026-11-01\n---\nThe quixotic blade guard rattles.\n".write(toFile: comment, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 2.2)
        try builder.build()
        #expect(!(try Self.recentURLs(output)).isEmpty)
        try (Fixtures.read(settings) + "# Changed: every machine is planned.\n").write(toFile: settings, atomically: true, encoding: .utf8)
        try builder.build()
        #expect(!FileManager.default.fileExists(atPath: output + "/pagefind/recent"), "the recent shard is gone")
        #expect(!Fixtures.read(output + "/search/index.html").contains("recent"))
        #expect(try Self.searched(output)["/machines/desk-fan/"]?.contains("quixotic") == true)
        try builder.build()
        let reference = site + "/reference"
        try SiteBuilder(siteRoot: site, output: reference, full: true).build()
        #expect(try IncrementalBuildTests.snapshot(output) == (try IncrementalBuildTests.snapshot(reference)))
        #expect(try Self.searched(output) == (try Self.searched(reference)))

        // From shards to one index, with a recent shard published: the search page names neither.
        try "---\nauthor: Bo\ndate: 2026-11-02\n---\nA zealous note.\n".write(toFile: comment, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 2.2)
        try builder.build()
        #expect(!(try Self.recentURLs(output)).isEmpty)
        try Fixtures.read(settings).replacingOccurrences(of: "search_shards: 4", with: "search_shards: 1")
            .write(toFile: settings, atomically: true, encoding: .utf8)
        try builder.build()
        let page = Fixtures.read(output + "/search/index.html")
        #expect(!FileManager.default.fileExists(atPath: output + "/pagefind/recent") && !page.contains("data-superseded"))
        #expect(!page.contains("data-merge") && page.contains("../pagefind/pagefind.js"))
    }
}
