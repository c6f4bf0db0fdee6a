import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

@Suite("Raw HTML kept by an allowlist")
struct HTMLAllowlistTests {
    let markdown = MarkdownRenderer()

    @Test("An mdBook manual's <kbd>, <details>, <sub> and <img width> are kept, in a comment too but the image", arguments: [
        MarkdownRenderer.Trust.designer(allowHTML: false), .community,
    ])
    func formattingIsKept(trust: MarkdownRenderer.Trust) {
        let html = markdown.render("""
            Press <kbd>Ctrl</kbd>+<kbd>C</kbd>. H<sub>2</sub>O, x<sup>2</sup>.

            <details>
            <summary>Wiring</summary>

            The **red** wire first.

            </details>

            <img src="fan.png" alt="The fan" width="120" height="80">
            """, trust: trust)
        #expect(html.contains("<kbd>Ctrl</kbd>+<kbd>C</kbd>"), "\(html)")
        #expect(html.contains("H<sub>2</sub>O, x<sup>2</sup>"))
        #expect(html.contains("<details>\n<summary>Wiring</summary>") || html.contains("<details><summary>Wiring</summary>")
                || html.contains("<details>") && html.contains("<summary>Wiring</summary>"), "\(html)")
        #expect(html.contains("<strong>red</strong>") && html.contains("</details>"))
        if case .community = trust {
            // A visitor's image loads nothing: its text stays (`MarkdownSafetyTests.communityImagesLoadNothing`).
            #expect(!html.contains("<img") && html.contains("The fan"), "\(html)")
        } else {
            #expect(html.contains("<img src=\"fan.png\" alt=\"The fan\" width=\"120\" height=\"80\">"), "\(html)")
        }
    }

    @Test("What can run script is left out, and said so with its line", arguments: [
        // A visitor's image is its alt text (`MarkdownSafetyTests.communityImagesLoadNothing`).
        ("<img src=x onerror=\"alert(1)\">", "", "onerror= on <img>"),
        ("<a href=\"javascript:alert(1)\">go</a>", "<a>go</a>", "href=\"javascript:alert(1)\" on <a>"),
        ("<a href=\"java&#115;cript:alert(1)\">go</a>", "<a>go</a>", "href=\"java&#115;cript:alert(1)\" on <a>"),
        ("<a href=\" JaVa\tScRiPt:alert(1)\">go</a>", "<a>go</a>", "on <a>"),
        ("<script>alert(1)</script>after", "after", "<script>"),
        ("<style>body{display:none}</style>after", "after", "<style>"),
        ("<iframe src=\"https://evil.example\"></iframe>", "", "<iframe>"),
        ("<div style=\"position:fixed\">x</div>", "<div>x</div>", "style= on <div>"),
        ("<svg onload=alert(1)><circle/></svg>", "", "<svg>"),
        ("<img src=\"data:text/html,<script>\">", "", "src=\"data:text/html,<script>\" on <img>"),
        ("<img width=\"100%\" src=a.png>", "", "width=\"100%\" on <img>"),
    ])
    func scriptIsLeftOut(input: String, kept: String, said: String) {
        let document = markdown.document("Before.\n\n" + input + "\n", trust: .community)
        #expect(kept.isEmpty || document.html.contains(kept), "\(input) -> \(document.html)")
        for word in ["onerror", "javascript", "<script", "<style", "<iframe", "style=", "<svg", "onload", "data:text"] {
            #expect(!document.html.lowercased().contains(word), "\(input) -> \(document.html)")
        }
        #expect(document.droppedHTML.contains { $0.what.contains(said) && $0.line == 3 }, "\(document.droppedHTML)")
    }

    @Test("Tags are balanced within the text: a stray closing tag cannot close the page's element, an open one is closed")
    func balanced() {
        let stray = markdown.render("</div></details></main>Text", trust: .community)
        #expect(!stray.contains("</div>") && !stray.contains("</details>") && !stray.contains("</main>"), "\(stray)")
        let open = markdown.render("<details><summary>More</summary>\n\nText", trust: .community)
        #expect(open.hasSuffix("</summary></details>") || open.contains("</details>"), "\(open)")
        #expect(open.components(separatedBy: "<details>").count == open.components(separatedBy: "</details>").count)
        let crossed = markdown.render("<b><i>x</b> y", trust: .community)
        #expect(crossed.contains("<b><i>x</i></b> y"), "\(crossed)")
    }

    @Test("What raw HTML leaves open is closed where its paragraph, link or emphasis ends, no block sits in a line of text, and the page stays well nested", arguments: [
        MarkdownRenderer.Trust.designer(allowHTML: false), .community,
    ])
    func validWhereItEnds(trust: MarkdownRenderer.Trust) {
        let cases = [
            // cmark-gfm's own raw HTML examples, and what visitors write.
            "<a href=\"bar\">baz\n\nNext paragraph.",
            "*a <b>b* c</b> d",
            "Foo <a href=\"x\">*bar\n\n* item <i>one\n* two</i>",
            "<del>*foo*\n\n</del>",
            "Text <div>in a line</div> and <details><summary>no</summary></details> more.",
            "<dt>Term</dt>\n\n<dd>Said</dd>",
            "| a | b |\n|---|---|\n| <b>open | <i>x</i> |",
            "[a link <b>bold](https://example.org) after</b>",
            "<details>\n<summary>Wiring</summary>\n\nThe **red** <kbd>wire\n\n</details>",
        ]
        for text in cases {
            let document = markdown.document(text, trust: trust)
            #expect(Self.wellNested(document.html), "\(text) -> \(document.html)")
            #expect(!document.html.contains("<div") && !document.html.contains("<dt") && !document.html.contains("<dd"),
                    "\(text) -> \(document.html)")
        }
        let link = markdown.render("<a href=\"bar\">baz\n\nNext.", trust: trust)
        #expect(link.contains(">baz</a></p>"), "\(link)")
        let crossed = markdown.render("*a <b>b* c</b> d", trust: trust)
        #expect(crossed.contains("<em>a <b>b</b></em> c d"), "\(crossed)")
        let inLine = markdown.document("Text <div>in a line</div>.", trust: trust)
        #expect(inLine.droppedHTML.contains { $0.what == "<div> inside a line of text" && $0.line == 1 }, "\(inLine.droppedHTML)")
        // Said as what it is: markup that would break the page, not markup that could run script.
        #expect(inLine.droppedHTML.contains { $0.problem == .rawHTMLMisplaced("<div> inside a line of text") }, "\(inLine.droppedHTML)")
        #expect(markdown.render("<img src=\"a.png\">", trust: .designer(allowHTML: false)).contains("<img src=\"a.png\" alt=\"\">"))
        // Blocks of raw HTML still hold Markdown paragraphs.
        let details = markdown.render("<details>\n<summary>More</summary>\n\nText\n\n</details>", trust: trust)
        #expect(details.contains("<p>Text</p>") && details.contains("</details>"), "\(details)")
    }

    /// Whether every element closes after those opened inside it.
    static func wellNested(_ html: String) -> Bool {
        var open: [String] = []
        var rest = Substring(html)
        while let start = rest.firstIndex(of: "<") {
            let tag = rest[rest.index(after: start)...].prefix { $0 != ">" && $0 != " " && $0 != "\n" }
            rest = rest[rest.index(after: start)...]
            let closing = tag.hasPrefix("/"), name = String(closing ? tag.dropFirst() : tag).lowercased()
            guard let first = name.first, first.isLetter, !HTMLAllowlist.void.contains(name), !["input", "/"].contains(name) else { continue }
            if !closing { open.append(name); continue }
            guard open.last == name else { return false }
            open.removeLast()
        }
        return open.isEmpty
    }

    @Test("Text between tags is escaped, entities kept; a comment's anchors are nofollow")
    func escaping() {
        let html = markdown.render("<span>a < b & c &copy; <notatag</span> <a href=\"https://example.org\" title='x\"y'>site</a>",
                                   trust: .community)
        #expect(html.contains("<span>a &lt; b &amp; c &copy; &lt;notatag</span>") || html.contains("&lt;"), "\(html)")
        #expect(html.contains("<a rel=\"nofollow ugc\" href=\"https://example.org\" title=\"x&quot;y\">site</a>"), "\(html)")
        // The title written before the address: still the visitor's link.
        let titleFirst = markdown.render("<a title=\"t\" href=\"https://example.org/2\">two</a>", trust: .community)
        #expect(titleFirst.contains("<a rel=\"nofollow ugc\" href=\"https://example.org/2\" title=\"t\">two</a>"), "\(titleFirst)")
    }
}

@Suite("Raw HTML in a site")
struct RawHTMLSiteTests {
    @Test("A comment's <kbd> reaches its page, and what is left out is warned of at its file and line; unsafe_html keeps a description's HTML")
    func warnedAtItsLine() throws {
        let site = Fixtures.temporaryFolder()
        try FileManager.default.copyItem(atPath: Fixtures.demoSite + "/content", toPath: site + "/content")
        let comment = site + "/content/machines/desk-fan/comments/2026-11-01-ada.md"
        try "---\nauthor: Ada\ndate: 2026-11-01\n---\nPress <kbd>Stop</kbd> first.\n\n<marquee>Look!</marquee>\n"
            .write(toFile: comment, atomically: true, encoding: .utf8)
        let description = site + "/content/machines/desk-fan/description.md"
        try (Fixtures.read(description) + "\n<button onclick=\"spin()\">Spin</button>\n").write(toFile: description, atomically: true, encoding: .utf8)
        let report = try SiteBuilder(siteRoot: site).build()
        let warnings = report.warnings.map(\.description).filter { $0.contains("raw HTML") }
        #expect(warnings.contains { $0.hasPrefix("content/machines/desk-fan/comments/2026-11-01-ada.md:7:1: warning: raw HTML <marquee> is left out") },
                "\(warnings)")
        let lines = Fixtures.read(description).split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(warnings.contains { $0.hasPrefix("content/machines/desk-fan/description.md:\(lines):1: warning: raw HTML <button>") }, "\(warnings)")
        let page = Fixtures.read(site + "/public/machines/desk-fan/index.html")
        #expect(page.contains("Press <kbd>Stop</kbd> first.") && !page.contains("<marquee") && !page.contains("onclick"))

        let settings = site + "/content/site.yaml"
        try Fixtures.read(settings).replacingOccurrences(of: "unsafe_html: false", with: "unsafe_html: true")
            .write(toFile: settings, atomically: true, encoding: .utf8)
        let trusted = try SiteBuilder(siteRoot: site).build().warnings.map(\.description).filter { $0.contains("raw HTML") }
        #expect(trusted.allSatisfy { $0.contains("comments/") }, "the description's HTML is trusted: \(trusted)")
        #expect(Fixtures.read(site + "/public/machines/desk-fan/index.html").contains("<button onclick=\"spin()\">Spin</button>"))
    }
}
