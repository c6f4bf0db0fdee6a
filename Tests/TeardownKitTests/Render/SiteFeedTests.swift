import Foundation
import Testing
@testable import TeardownContent
@testable import TeardownBuild

@Suite("The site's feed")
struct SiteFeedTests {
    /// A site folder with only site.yaml (no search), and the folder it is in.
    static func feedSite() throws -> (root: String, site: String) {
        let root = Fixtures.temporaryFolder()
        let site = root + "/site"
        try Fixtures.write("title: \"Feeds\"\nbase_url: \"https://example.org/\"\nsearch: false\n", to: "content/site.yaml", in: site)
        return (root, site)
    }

    /// Machine `m` of `site` with `parts` (one named "part" unless given) and no comments yet;
    /// its folder, relative to the site.
    static func machine(_ m: Int, in site: String, parts: [String] = ["part"]) throws -> String {
        let machine = "content/machines/machine-\(m)"
        try Fixtures.write("name: \"Machine \(m)\"\nsummary: \"Machine \(m).\"\ncanvas: {width: 20, height: 10}\n",
                           to: machine + "/machine.yaml", in: site)
        for part in parts {
            try Fixtures.write("name: \"\(part.capitalized)\"\nlayer:\n  image: layer.svg\n  z: 1\n",
                               to: machine + "/parts/\(part)/part.yaml", in: site)
            try Fixtures.write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\"><rect width=\"9\" height=\"9\"/></svg>",
                               to: machine + "/parts/\(part)/layer.svg", in: site)
        }
        return machine
    }

    /// Four machines whose comments interleave in time, and one whose comments are all older:
    /// the feed takes each machine's comments only while they can still make the list.
    @Test("The site's feed lists the newest comments of all machines, newest first, and none older")
    func newestOfAllMachines() throws {
        let (root, site) = try Self.feedSite()
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let start = try #require(formatter.date(from: "2020-01-01"))
        var expected: [String] = []
        for m in 0..<5 {
            let machine = try Self.machine(m, in: site)
            for i in 0..<30 {
                // Machines 0-3 take turns day by day; machine 4's comments are all a year older.
                let day = m == 4 ? i - 400 : i * 4 + m
                let text = formatter.string(from: start.addingTimeInterval(Double(day) * 86_400))
                let date = try #require(ISODate(text))
                try Fixtures.write("---\nauthor: Ada\ndate: \(text)\n---\nComment \(i) of machine \(m).\n",
                                   to: machine + "/parts/part/comments/c\(i).md", in: site)
                if m < 4, day >= 120 - PageRenderer.feedLimit { expected.append(date.rfc3339) }
            }
        }
        try SiteBuilder(siteRoot: site, output: root + "/public", pagefind: .notInstalled).build()
        let feed = Fixtures.read(root + "/public/feed.xml")
        let updated = feed.components(separatedBy: "<entry>").dropFirst().compactMap { entry in
            entry.range(of: "<updated>").flatMap { start in
                entry.range(of: "</updated>").map { String(entry[start.upperBound..<$0.lowerBound]) }
            }
        }
        #expect(updated == expected.sorted(by: >))
        #expect(!feed.contains("of machine 4."))
    }

    /// Comments are dated by the day: on one day, items go by machine (the later in the catalog
    /// first), part and id, and the machines that cannot make the list are not read.
    @Test("Many machines' comments of one day: the feed cuts them in the catalog's order")
    func oneDay() throws {
        let (root, site) = try Self.feedSite()
        for m in 0..<6 {
            let machine = try Self.machine(m, in: site)
            for i in 0..<12 {
                try Fixtures.write("---\nauthor: Ada\ndate: 2021-05-05\n---\nComment \(i) of machine \(m).\n",
                                   to: machine + String(format: "/parts/part/comments/c%02d.md", i), in: site)
            }
        }
        try SiteBuilder(siteRoot: site, output: root + "/public", pagefind: .notInstalled).build()
        let feed = Fixtures.read(root + "/public/feed.xml")
        let entries = feed.components(separatedBy: "<entry>").dropFirst().map { entry -> String in
            let machine = entry.range(of: "machines/machine-").map { String(entry[$0.upperBound...].prefix(1)) } ?? "?"
            let comment = entry.range(of: "#comment-").map { String(entry[$0.upperBound...].prefix(3)) } ?? "?"
            return machine + "/" + comment
        }
        let expected = (2..<6).reversed().flatMap { m in (0..<12).reversed().map { String(format: "%d/c%02d", m, $0) } }
            + ["1/c11", "1/c10"]
        #expect(entries == expected)
    }
}
