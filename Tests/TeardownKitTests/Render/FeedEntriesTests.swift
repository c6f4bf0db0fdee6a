import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

/// The site feed's items are kept with what they read (`FeedEntries`): a comment makes the
/// items of its own machine, and the feed is byte for byte what a full build writes, whatever
/// the edit did to the list.
@Suite("The site feed's kept items")
struct FeedEntriesTests {
    private static func machine(_ m: Int, in site: String) throws -> String {
        try SiteFeedTests.machine(m, in: site, parts: ["lid", "base"])
    }

    private static func comment(_ site: String, machine m: Int, part: String, name: String, date: String, text: String) throws {
        try Fixtures.write("---\nauthor: Ada\ndate: \(date)\n---\n\(text)\n",
                           to: "content/machines/machine-\(m)/parts/\(part)/comments/\(name).md", in: site)
    }

    @Test("A comment makes its machine's items; after random edits of comments the feed equals a full build's")
    func keptItems() throws {
        let (root, site) = try SiteFeedTests.feedSite()
        // Seventy-two comments of two days on six machines: more than a feed lists, most of one day.
        var comments: [(machine: Int, part: String, name: String)] = []
        for m in 0..<6 {
            _ = try Self.machine(m, in: site)
            for i in 0..<12 {
                let part = i % 2 == 0 ? "lid" : "base"
                let name = String(format: "c%02d", i)
                try Self.comment(site, machine: m, part: part, name: name, date: i < 9 ? "2021-05-05" : "2021-05-04",
                                 text: "Comment \(i) of machine \(m).")
                comments.append((m, part, name))
            }
        }
        let output = root + "/public"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: root + "/cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        try builder.build()
        #expect(counts[.feedItemsMade] == PageRenderer.feedLimit, "a first build makes every item")
        func full() throws -> String {
            try SiteBuilder(siteRoot: site, output: root + "/full", full: true, cacheFolder: root + "/full-cache",
                            pagefind: .notInstalled).build()
            return Fixtures.read(root + "/full/feed.xml")
        }

        // A comment on machine 1 (of a part whose items were cut): only machine 1's are made.
        try Self.comment(site, machine: 1, part: "lid", name: "new", date: "2021-05-05", text: "The newest, on machine 1.")
        comments.append((1, "lid", "new"))
        let madeBefore = counts[.feedItemsMade], decodedBefore = counts[.headsDecoded]
        try builder.build()
        #expect(counts[.feedItemsMade] - madeBefore <= 13, "machine 1's items, not the list's")
        #expect(counts[.headsDecoded] - decodedBefore <= 2)
        #expect(Fixtures.read(output + "/feed.xml").contains("The newest, on machine 1."))
        #expect(Fixtures.read(output + "/feed.xml") == (try full()))

        // Comments added, removed and edited: the list kept does, or does not, still do.
        var random = SeededRandom(seed: 7)
        for step in 0..<24 {
            let edit: String
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let m = Int.random(in: 0..<6, using: &random)
                let day = ["2021-05-03", "2021-05-04", "2021-05-05", "2021-05-06"].randomElement(using: &random)!
                let name = "e\(step)"
                try Self.comment(site, machine: m, part: "base", name: name, date: day, text: "Edit \(step) on machine \(m).")
                comments.append((m, "base", name))
                edit = "added \(name) to machine \(m), \(day)"
            case 1:
                let gone = comments.remove(at: Int.random(in: 0..<comments.count, using: &random))
                try FileManager.default.removeItem(atPath: site + "/content/machines/machine-\(gone.machine)/parts/\(gone.part)/comments/\(gone.name).md")
                edit = "removed \(gone.name) of machine \(gone.machine)"
            default:
                let changed = comments[Int.random(in: 0..<comments.count, using: &random)]
                try Self.comment(site, machine: changed.machine, part: changed.part, name: changed.name, date: "2021-05-02",
                                 text: "Edited at step \(step), and dated back.")
                edit = "dated \(changed.name) of machine \(changed.machine) back"
            }
            try builder.build()
            #expect(Fixtures.read(output + "/feed.xml") == (try full()), "step \(step): \(edit)")
        }
    }

    @Test("A damaged memo is no memo, and a full build keeps none")
    func damaged() throws {
        let (root, site) = try SiteFeedTests.feedSite()
        for m in 0..<2 {
            _ = try Self.machine(m, in: site)
            try Self.comment(site, machine: m, part: "lid", name: "c", date: "2021-05-05", text: "On machine \(m).")
        }
        let output = root + "/public"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: root + "/cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        try builder.build()
        let memo = CacheLayout(root: root + "/cache").output(output).feedEntries
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: memo))
        try Self.comment(site, machine: 0, part: "base", name: "d", date: "2021-05-06", text: "Another on machine 0.")
        let madeBefore = counts[.feedItemsMade]
        try builder.build()
        #expect(counts[.feedItemsMade] - madeBefore == 3, "every item made again")
        #expect(Fixtures.read(output + "/feed.xml").contains("Another on machine 0."))

        // A list another build kept, not the one published since, is no memo either.
        let older = try Data(contentsOf: URL(fileURLWithPath: memo))
        try Self.comment(site, machine: 1, part: "base", name: "e", date: "2021-05-07", text: "Newer on machine 1.")
        try builder.build()
        try older.write(to: URL(fileURLWithPath: memo))
        try Self.comment(site, machine: 0, part: "base", name: "f", date: "2021-05-08", text: "Newest on machine 0.")
        let madeThen = counts[.feedItemsMade]
        try builder.build()
        #expect(counts[.feedItemsMade] - madeThen == 5, "every item made again")

        let fullCounts = Counts()
        try SiteBuilder(siteRoot: site, output: output, full: true, cacheFolder: root + "/cache", pagefind: .notInstalled,
                        counters: fullCounts.counters).build()
        #expect(fullCounts[.feedItemsMade] == 5, "a full build takes no kept item")
    }
}
