import Foundation
import GRDB
import Testing
@testable import TeardownBase
@testable import TeardownBuild

@Suite("The first answer")
struct FirstAnswerTests {
    /// The minimal site, built into `public` beside it.
    private struct Site {
        let root = Fixtures.copy(Fixtures.site("minimal"))
        var output: String { (root as NSString).deletingLastPathComponent + "/public" }

        func write(_ text: String, to path: String) throws {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }

        func build(full: Bool = false, into folder: String? = nil) throws {
            let output = folder ?? self.output
            try SiteBuilder(siteRoot: root, output: output, full: full, cacheFolder: output + ".cache").build()
        }

        /// Every first-answer file of `output`, by name, with its text.
        func files(in output: String? = nil) -> [String: String] {
            let folder = (output ?? self.output) + "/" + SearchWords.folder
            var files: [String: String] = [:]
            for name in FileSystem.names(in: folder) {
                files[name] = FileManager.default.contents(atPath: folder + name).map { String(decoding: $0, as: UTF8.self) }
            }
            return files
        }

        /// The entry of `word`, as search.js reads it.
        func entry(_ word: String) throws -> [String: Any]? {
            let count = try #require(try firstAnswerMeta().flatMap { Int($0) })
            let name = "words-" + String(SearchWords.file(of: word, count: count), radix: 16) + ".json"
            guard let text = files()[name] else { return nil }
            let file = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return (file["words"] as? [String: Any])?[word] as? [String: Any]
        }

        /// The file count the search page gives its script.
        func firstAnswerMeta() throws -> String? {
            let page = try String(contentsOfFile: output + "/search/index.html", encoding: .utf8)
            guard let range = page.range(of: "name=\"teardown-first-answer\" content=\"") else { return nil }
            return String(page[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test("Each word lists the pages holding it, best first; a comment rewrites only its new words' files, and the files are a full build's")
    func incremental() throws {
        let site = Site()
        try site.build()
        let lid = try #require(try site.entry("lid"))
        let pages = try #require(lid["p"] as? [[Any]])
        #expect(lid["n"] as? Int == pages.count && lid["all"] as? Int == 1)
        // The part named "Lid" comes first: the word is its heading's.
        #expect(pages.first?[0] as? String == "machines/box/parts/lid/")
        #expect(pages.first?[1] as? String == "Lid")
        #expect(pages.first?[3] as? String == "Box")
        #expect(try site.entry("zanzibar") == nil)

        let before = site.files()
        try site.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nZanzibar quokka.\n", to: "content/machines/box/parts/lid/comments/new.md")
        try site.build()
        let after = site.files()
        let changed = Set(after.keys.filter { before[$0] != after[$0] }).union(before.keys.filter { after[$0] == nil })
        let count = try #require(try site.firstAnswerMeta().flatMap { Int($0) })
        let expected = Set(["zanzibar", "quokka"].map { SearchWords.wordsPath(SearchWords.file(of: $0, count: count)) }
            .map { String($0.dropFirst(SearchWords.folder.count)) } + ["vocabulary-z.json", "vocabulary-q.json"])
        #expect(changed == expected, "only the files of the words the page gained")
        #expect((try site.entry("zanzibar")?["p"] as? [[Any]])?.first?[0] as? String == "machines/box/parts/lid/")
        let full = site.root + "-full"
        try site.build(full: true, into: full)
        #expect(site.files(in: full) == after, "an incremental build's files are a full build's")

        // The comment gone, and the part renamed: the words it lost leave, its entries show its new name.
        try FileManager.default.removeItem(atPath: site.root + "/content/machines/box/parts/lid/comments/new.md")
        try site.write("name: \"Lid, hinged\"\nlayer:\n  image: lid.svg\n  z: 1\n", to: "content/machines/box/parts/lid/part.yaml")
        try site.build()
        #expect(try site.entry("zanzibar") == nil)
        #expect(site.files()["vocabulary-z.json"] == nil, "no word starts with z")
        #expect((try site.entry("hello")?["p"] as? [[Any]])?.first?[1] as? String == "Lid, hinged")
        try site.build(full: true, into: full)
        #expect(site.files(in: full) == site.files())
    }

    @Test("Pages that rank alike list in the same order after a machine is renamed as in a clean full build: the order is the pages', not the build history's")
    func renamedTies() throws {
        let site = Site()
        let machines = site.root + "/content/machines/"
        // Two lids alike, so that only the tie-break orders them in the entry of "lid".
        try FileManager.default.copyItem(atPath: machines + "box", toPath: machines + "crate")
        try site.write("name: \"Crate\"\nsummary: \"A crate.\"\ncanvas: {width: 200, height: 100}\ntags: [test]\n",
                       to: "content/machines/crate/machine.yaml")
        try site.build()
        // Renamed to a name before the other's, and it comes back as a page first seen now.
        try FileManager.default.moveItem(atPath: machines + "crate", toPath: machines + "abox")
        try site.build()
        let lids = try #require(try site.entry("lid")?["p"] as? [[Any]]).compactMap { $0[0] as? String }
        #expect(Set(lids).isSuperset(of: ["machines/box/parts/lid/", "machines/abox/parts/lid/"]), "\(lids)")
        let full = site.root + "-full"
        try site.build(full: true, into: full)
        #expect(site.files(in: full) == site.files())
    }

    @Test("Forged rows in a restored store (entries and results pointing off the site) are found as damage, not published: the build starts over once and its files are a full build's")
    func forgedRows() throws {
        let site = Site()
        try site.build()
        let queue = try DatabaseQueue(path: CacheLayout(root: site.output + ".cache").output(site.output).store)
        try queue.write { db in
            try db.execute(sql: """
                UPDATE search_words SET entry = json_quote(word) || ':{"n":1,"all":1,"p":[["https://tracker.example/","Lid",["part"],null]]}';
                UPDATE search_pages SET item = '["https://tracker.example/","Forged",["part"],null]'
                """)
        }
        try queue.close()
        let forged = site.files()
        // A comment with a word the site already holds: its file's entries are read from the store.
        try site.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nThe lid, again.\n", to: "content/machines/box/parts/lid/comments/new.md")
        let report = try SiteBuilder(siteRoot: site.root, output: site.output, cacheFolder: site.output + ".cache").build()
        #expect(report.notices.contains(BuildStore.Notice.damaged.rawValue), "\(report.notices)")
        let published = site.files()
        #expect(!published.values.contains { $0.contains("tracker.example") })
        #expect(published != forged)
        let full = site.root + "-full"
        try site.build(full: true, into: full)
        #expect(site.files(in: full) == published)
    }

    @Test("A page's indexed text: Pagefind's body without what it ignores, weights, title, kinds and machine")
    func indexedText() throws {
        let html = """
            <html><head><meta name="pagefind-type" content="part"><meta name="pagefind-type" content="comment">
            <meta name="pagefind-machine" content="Box &amp; Co"><script>var hidden = "scripted";</script></head>
            <body><header>Site Name</header><div data-pagefind-body><h1 data-pagefind-weight="10">Fan <em>Guard</em></h1>
            <p>Keeps fingers &lt;out&gt; of the blades. Écrou, 2-pin</p><br/><img src="x.png" alt="pictured">
            <nav data-pagefind-ignore><p>Older</p><div><p>nested</p></div></nav><p>after</p></div><footer>footer</footer></body></html>
            """
        let text = try #require(IndexedText(html: Array(html.utf8)))
        #expect(text.title == "Fan Guard")
        #expect(text.types == ["part", "comment"])
        #expect(text.machine == "Box & Co")
        #expect(text.words["fan"] == 10 && text.words["guard"] == 10)
        #expect(text.words["fingers"] == 1 && text.words["out"] == 1 && text.words["ecrou"] == 1 && text.words["pin"] == 1)
        #expect(text.words["after"] == 1, "text after an ignored element is indexed")
        for absent in ["site", "name", "older", "nested", "footer", "scripted", "hidden", "pictured"] {
            #expect(text.words[absent] == nil, "\(absent) is not indexed")
        }
        #expect(IndexedText(html: Array("<html><body><p>No body marked</p></body></html>".utf8)) == nil)
        #expect(SiteBuilder.owner(of: "machines/box/parts/lid/discussion/3/index.html") == "machines/box/parts/lid/index.html")
        #expect(SiteBuilder.owner(of: "manual/discussion/index.html") == "manual/discussion/index.html")
        // The postings' stored form reads back as written; a damaged one is refused.
        let postings = [FirstAnswer.Posting(page: 1, weight: 10, order: 1), FirstAnswer.Posting(page: 300_000, weight: 1, order: 0)]
        #expect(FirstAnswer.postings(FirstAnswer.blob(postings)) == postings)
        #expect(FirstAnswer.postings(Data([0x80])) == nil)
        // The standard FNV-1a of "a" (0xe40c292c), as search.js computes it.
        #expect(SearchWords.file(of: "a", count: 1 << 31) == 0x640c_292c)
    }
}
