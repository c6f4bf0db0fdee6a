import Foundation
import Testing
@testable import TeardownKit

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

        func part(_ slug: String) throws -> [String: Any] {
            let parts = try #require(try machineJSON()["parts"] as? [[String: Any]])
            return try #require(parts.first { $0["slug"] as? String == slug })
        }

        func comment(_ name: String, author: String, date: String, _ body: String) throws {
            try "---\nauthor: \(author)\ndate: \(date)\n---\n\(body)\n"
                .write(toFile: core + "/comments/\(name).md", atomically: true, encoding: .utf8)
        }
    }

    @Test("Details & Discuss reads descriptions and the newest comments as HTML; Photos reads the part's photos")
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
        let comments = try #require(notes["latestComments"] as? [[String: String]])
        #expect(comments.map { $0["author"] } == ["Grace", "Linus"])
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

    @Test("Only the three newest comments go into machine.json, made safe like on the page, and a new one rewrites it")
    func newestCommentsOnly() throws {
        let press = Press()
        try press.build()
        try press.comment("hostile", author: "Mallory", date: "2024-06-01",
                          "Look <script>alert(1)</script><img src=x onerror=alert(2)> [here](javascript:alert(3))")
        try press.comment("newest", author: "Ada", date: "2024-07-01", "Newest of all.")
        try press.build()
        let comments = try #require((try press.part("core")["notes"] as? [String: Any])?["latestComments"] as? [[String: String]])
        #expect(comments.map { $0["author"] } == ["Ada", "Mallory", "Grace"])
        let hostile = try #require(comments[1]["html"])
        #expect(!hostile.contains("<script"))
        #expect(!hostile.contains("onerror"))
        #expect(!hostile.contains("javascript:"))
        #expect(try press.part("core")["comments"] as? Int == 4)
    }
}
