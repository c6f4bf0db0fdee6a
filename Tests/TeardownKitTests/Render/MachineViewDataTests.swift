import Foundation
import Testing
@testable import TeardownContent
@testable import TeardownBuild

/// The machine view fixture (see Fixtures/make-machine-view-fixture.py): a press of three
/// layers, the core with two comments and a photo. The browser tests drive the view itself.
@Suite("Machine view data")
struct MachineViewDataTests {
    private struct Press {
        let site = Fixtures.copy(Fixtures.site("machine-view"))
        var output: String { (site as NSString).deletingLastPathComponent + "/public" }
        var core: String { site + "/content/machines/press/parts/core" }

        func build() throws {
            try SiteBuilder(siteRoot: site, output: output, cacheFolder: site + "/.teardown-cache",
                            pagefind: .notInstalled).build()
        }

        func machineJSON() throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: output + "/machines/press/machine.json"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }

        func discussionJSON() throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: output + "/machines/press/discussion.json"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }

        /// A part's comment count and newest comments, from discussion.json.
        func thread(_ slug: String) throws -> (comments: Int, latest: [[String: String]]) {
            let parts = try #require(try discussionJSON()["parts"] as? [String: [String: Any]])
            let thread = try #require(parts[slug])
            return (try #require(thread["comments"] as? Int), try #require(thread["latestComments"] as? [[String: String]]))
        }

        func part(_ slug: String) throws -> [String: Any] {
            let parts = try #require(try machineJSON()["parts"] as? [[String: Any]])
            return try #require(parts.first { $0["slug"] as? String == slug })
        }

        func comment(_ name: String, author: String, date: String, _ body: String) throws {
            try "---\nauthor: \(author)\ndate: \(date)\n---\n\(body)\n"
                .write(toFile: core + "/comments/\(name).md", atomically: true, encoding: .utf8)
        }
    }

    @Test("Details & Discuss reads descriptions from machine.json and the newest comments from discussion.json, as HTML; Photos reads the part's photos")
    func notesAndPhotos() throws {
        let press = Press()
        try press.build()
        let machine = try press.machineJSON()
        let machineNotes = try #require(machine["notes"] as? [String: Any])
        #expect(machineNotes["description"] as? String
                == "<p>The whole press: lift the <strong>frame</strong> to reach the core.</p>\n")
        let core = try press.part("core")
        let notes = try #require(core["notes"] as? [String: Any])
        #expect(notes["description"] as? String == "<p>The core is <em>orange</em> and shows through the frame.</p>\n")
        #expect(notes["latestComments"] == nil && core["comments"] == nil, "comments are in discussion.json")
        #expect(machine["discussion"] as? String == "discussion.json")
        let (count, comments) = try press.thread("core")
        #expect(count == 2)
        #expect(comments.map { $0["author"] } == ["Grace", "Linus"])
        #expect(try press.thread("frame").comments == 0)
        let own = try #require(try press.discussionJSON()["machine"] as? [String: Any])
        #expect(own["comments"] as? Int == 0)
        #expect(comments.first?["date"] == "2024-05-02")
        #expect(comments.first?["html"] == "<p>The core came out with a <strong>gentle</strong> pull.</p>\n")
        let slides = try #require(core["lightbox"] as? [[String: Any]])
        #expect(slides.count == 1)
        let slide = try #require(slides.first)
        #expect(slide["caption"] as? String == "The core on the bench · Photo by Grace")
        #expect(slide["page"] as? String == "parts/core/photos/bench/")
        #expect(slide["width"] as? Int == 160 && slide["height"] as? Int == 120)
        let image = try #require(slide["image"] as? String)
        #expect(TextFile.exists(press.output + "/machines/press/" + image))
        #expect((try press.part("frame")["lightbox"] as? [Any])?.isEmpty == true)
    }

    @Test("The machine page loads the view's script and keeps, for browsers without it, the picture and the part links")
    func pageWithoutScript() throws {
        let press = Press()
        try press.build()
        let page = Fixtures.read(press.output + "/machines/press/index.html")
        #expect(page.contains(#"<script src="../../assets/machine.js" defer></script>"#))
        #expect(page.contains(#"data-machine="machine.json""#))
        #expect(page.contains(#"<div class="stack""#))
        for part in ["plate", "core", "frame"] {
            #expect(page.contains(#"<img src="parts/\#(part)/\#(part).webp""#))
        }
        #expect(page.contains(#"<li><a href="parts/core/">Core</a>"#))
        #expect(TextFile.exists(press.output + "/assets/machine.js"))
    }

    @Test("Only the three newest comments go into discussion.json, made safe like on the page; a new one rewrites it and leaves machine.json and catalog.json as they were")
    func newestCommentsOnly() throws {
        let press = Press()
        try press.build()
        let read = { (path: String) in Fixtures.read(press.output + "/" + path) }
        let (data, catalog, bundle) = (read("machines/press/machine.json"), read("catalog.json"),
                                       try Data(contentsOf: URL(fileURLWithPath: press.output + "/downloads/press.zip")))
        try press.comment("hostile", author: "Mallory", date: "2024-06-01",
                          "Look <script>alert(1)</script><img src=x onerror=alert(2)> [here](javascript:alert(3))")
        try press.comment("newest", author: "Ada", date: "2024-07-01", "Newest of all.")
        try press.build()
        let (count, comments) = try press.thread("core")
        #expect(comments.map { $0["author"] } == ["Ada", "Mallory", "Grace"])
        let hostile = try #require(comments[1]["html"])
        #expect(!hostile.contains("<script"))
        #expect(!hostile.contains("onerror"))
        #expect(!hostile.contains("javascript:"))
        #expect(count == 4)
        #expect(read("machines/press/machine.json") == data)
        #expect(read("catalog.json") == catalog)
        #expect(try Data(contentsOf: URL(fileURLWithPath: press.output + "/downloads/press.zip")) == bundle)
    }

    @Test("machine.json's hand-written bytes are JSONEncoder's with sorted keys, for text of every kind and absent members")
    func handWrittenMatchesEncoder() {
        let texts = ["", "plain", "quote \" and \\ back/slash", "lines\nand\ttabs\r", "bell \u{07} nul \u{00} esc \u{1B} \u{0C}\u{08}",
                     "é 漢字 🙂 \u{2028} \u{7F}", "<p>html &amp; \"attrs\"</p>\n"]
        func text(_ n: Int) -> String { texts[n % texts.count] }
        func notes(_ n: Int) -> MachineData.Notes { MachineData.Notes(description: text(n)) }
        let parts = (0..<9).map { n in
            MachineData.PartData(
                slug: text(n), name: text(n + 1), z: n - 4, image: text(n + 2),
                box: MachineData.Box(x: -n, y: n, width: 10 * n, height: 0),
                bounds: n % 2 == 0 ? MachineData.Box(x: 1, y: 2, width: 3, height: 4) : nil,
                mask: n % 3 == 0 ? MachineData.Mask(columns: n, rows: 2, bits: text(n + 3)) : nil,
                page: text(n + 4), photos: n % 2 == 1 ? text(n + 5) : nil, photoCount: n * 2,
                notes: notes(n),
                lightbox: (0..<(n % 3)).map {
                    MachineData.Slide(image: text($0), width: 800, height: 600, caption: text(n + $0), page: text(n))
                })
        }
        for photos in [nil, "photos/"] {
            let data = MachineData(name: text(3), slug: "press", canvas: MachineData.Box(x: 0, y: 0, width: 800, height: 600),
                                   page: "./", photos: photos, discussion: text(6), notes: notes(5), parts: parts)
            #expect(data.json == data.encoded)
        }
        let empty = MachineData(name: "", slug: "", canvas: MachineData.Box(x: 0, y: 0, width: 0, height: 0), page: "",
                                photos: nil, discussion: "", notes: MachineData.Notes(description: ""), parts: [])
        #expect(empty.json == empty.encoded)
    }

    @Test("catalog.json writes a machine's unknown date and missing cover as null, as its schema requires")
    func catalogNulls() throws {
        let entry = CatalogData.MachineEntry(slug: "m", name: "M", summary: "", updated: nil, partCount: 1, photoCount: 0,
                                             tags: [], url: "u", data: "d", feed: "f", cover: nil,
                                             download: CatalogData.Download(url: "z", size: 1, sha256: "s"),
                                             comments: CatalogData.CommentsDownload(url: "c"))
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(entry)) as? [String: Any])
        #expect(object["updated"] is NSNull && object["cover"] is NSNull, "\(object)")
    }
}

extension MachineData {
    /// What Foundation's encoder makes of this value: the reference the hand-written form is held to.
    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
