import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

@Suite("The help manual")
struct ManualTests {
    /// Builds the mdBook-style fixture into a scratch folder.
    static func build(pagefind: SiteBuilder.PagefindLookup = .notInstalled) throws -> (output: String, report: SiteBuilder.Report) {
        let site = Fixtures.copy(Fixtures.site("manual"))
        let report = try SiteBuilder(siteRoot: site, pagefind: pagefind).build()
        return (site + "/public", report)
    }

    static func page(_ output: String, _ path: String) -> String {
        Fixtures.read(output + "/manual/" + path + "index.html")
    }

    static func link(_ html: String, rel: String) -> String? {
        guard let range = html.range(of: "<a rel=\"\(rel)\" href=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("SUMMARY.md sets the reading order: previous and next follow it, nesting included")
    func readingOrder() throws {
        let (output, _) = try Self.build()
        let chain: [(page: String, previous: String?, next: String?)] = [
            ("", nil, "guide/install/"),
            ("guide/install/", "../../", "../debian/"),
            ("guide/debian/", "../install/", "../configure/"),
            ("guide/configure/", "../debian/", "../../glossary/"),
            ("glossary/", "../guide/configure/", nil),
        ]
        for step in chain {
            let html = Self.page(output, step.page)
            #expect(Self.link(html, rel: "prev") == step.previous, "previous of /manual/\(step.page)")
            #expect(Self.link(html, rel: "next") == step.next, "next of /manual/\(step.page)")
        }
        let install = Self.page(output, "guide/install/")
        // The tree: parts as headings, Debian nested under Installing, the draft without a link, a separator.
        #expect(install.contains("<li class=\"part\"><span>User guide</span></li>"))
        #expect(install.contains("<a href=\"./\" aria-current=\"page\">Installing</a><ol>"))
        #expect(install.contains("<li class=\"page\"><a href=\"../debian/\">On Debian</a></li></ol></li>"))
        #expect(install.contains("<li class=\"draft\"><span>Troubleshooting</span></li>"))
        #expect(install.contains("<li class=\"separator\">"))
        #expect(install.contains("<a href=\"../../\">Manual</a> › <span aria-current=\"page\">Installing</span>"))
        let debian = Self.page(output, "guide/debian/")
        #expect(debian.contains("<a href=\"../../\">Manual</a> › <a href=\"../install/\">Installing</a> › "),
                "breadcrumbs name the parent chapter")
        // A page SUMMARY.md leaves out is published, outside the navigation and the page order.
        let unlisted = Self.page(output, "unlisted/")
        #expect(unlisted.contains("Only reachable by its address."))
        #expect(Self.link(unlisted, rel: "next") == nil && Self.link(unlisted, rel: "prev") == nil)
        #expect(!install.contains("Unlisted notes"))
    }

    @Test("Broken links, a missing SUMMARY.md entry and an unlisted page are warnings with file:line:col")
    func warnings() throws {
        let (_, report) = try Self.build()
        let manualWarnings = report.warnings.map(\.description).filter { $0.hasPrefix("content/manual/") }
        #expect(manualWarnings == [
            "content/manual/SUMMARY.md:14:1: warning: SUMMARY.md lists 'guide/renamed.md', which does not exist; it is shown as a draft",
            "content/manual/guide/debian.md:7:46: warning: broken link 'install.md#teardown': 'guide/install.md' has no heading with the anchor '#teardown'",
            "content/manual/guide/install.md:20:37: warning: broken link 'nowhere.md': the manual has no page 'guide/nowhere.md'",
            "content/manual/unlisted.md:1:1: warning: page is not listed in SUMMARY.md: it is published, but not in the navigation",
        ])
    }

    @Test("teardown check reports broken manual links too, writing nothing")
    func checkReportsLinks() {
        let site = Fixtures.copy(Fixtures.site("manual"))
        let warnings = SiteBuilder(siteRoot: site).check().map(\.description)
        #expect(warnings.contains("content/manual/guide/install.md:20:37: warning: broken link 'nowhere.md': "
            + "the manual has no page 'guide/nowhere.md'"))
        #expect(!TextFile.exists(site + "/public"))
    }

    @Test("Repeated headings get unique GitHub-style anchors, listed on the page")
    func anchors() throws {
        let (output, _) = try Self.build()
        let install = Self.page(output, "guide/install/")
        #expect(install.contains("<h2 id=\"setup\">Setup</h2>"))
        #expect(install.contains("<h2 id=\"setup-1\">Setup</h2>"))
        #expect(install.contains("<h2 id=\"setup-2\">Setup</h2>"))
        #expect(install.contains("<a href=\"#setup-1\">Setup</a>"), "the table of contents links each one")
        #expect(HeadingAnchors.slug("Why `vips` isn't fast? (2025 edition)") == "why-vips-isnt-fast-2025-edition")
        #expect(HeadingAnchors.ids(for: ["A", "A", "A-1"].map { .init(level: 2, text: $0) }) == ["a", "a-1", "a-1-1"])
    }

    @Test("Links between Markdown files become links to pages, anchors and copied files")
    func links() throws {
        let (output, _) = try Self.build()
        let intro = Self.page(output, "")
        #expect(intro.contains("<a href=\"guide/install/\">installing</a>"))
        #expect(intro.contains("<a href=\"glossary/#terms\">glossary</a>"))
        #expect(intro.contains("<img src=\"images/panel.png\" alt=\"The control panel\""))
        #expect(TextFile.exists(output + "/manual/images/panel.png"), "files beside the pages are published")
        let debian = Self.page(output, "guide/debian/")
        #expect(debian.contains("<a href=\"../install/#setup-1\">the guide</a>"))
        #expect(Self.page(output, "guide/configure/").contains("<a href=\"../../glossary/\">glossary</a>"))
        // An mdBook book links rendered pages; they lead to the pages made from its files.
        let configure = Self.page(output, "guide/configure/")
        #expect(configure.contains("<a href=\"../../\">back home</a>"), "index.html: the folder's README.md")
        #expect(configure.contains("<a href=\"../install/#setup-1\">installing</a>"))
        #expect(configure.contains("<a href=\"../../glossary/\">the glossary</a>"))
    }

    @Test("The print page holds every page in order, with links between pages turned into anchors")
    func printPage() throws {
        let (output, _) = try Self.build()
        let print = Self.page(output, "print/")
        let ids = print.components(separatedBy: "<section class=\"print-page\" id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(ids == ["README", "guide/install", "guide/debian", "guide/configure", "glossary", "unlisted"])
        #expect(print.contains("<h2 id=\"guide/install:setup-1\">Setup</h2>"))
        #expect(print.contains("<a href=\"#guide/install:setup-1\">the guide</a>"))
        #expect(print.contains("<a href=\"#guide/install\">installing</a>"))
        #expect(print.contains("<img src=\"../images/panel.png\""))
    }

    @Test("Edit this page and Report a bug link to the page's source and fill in its title and address")
    func editAndReport() throws {
        let (output, _) = try Self.build()
        let install = Self.page(output, "guide/install/")
        #expect(install.contains("<a class=\"edit-page\" href=\"https://git.example.org/team/site/edit/main/content/manual/guide/install.md\">"))
        #expect(install.contains("<a class=\"report-bug\" href=\"https://git.example.org/team/site/issues/new?title=Bug%3A%20Installing"
            + "&amp;body=Page%3A%20https%3A%2F%2Fexample.org%2Fdocs%2Fmanual%2Fguide%2Finstall%2F"))
        #expect(PageRenderer.bugReport("mailto:help@example.org", title: "A & B", address: "https://x/")
            == "mailto:help@example.org?subject=Bug%3A%20A%20%26%20B&body=Page%3A%20https%3A%2F%2Fx%2F%0A%0AWhat%20happened%3A%0A")
        #expect(PageRenderer.bugReport("https://t/new?about={url}&t={title}", title: "Fan", address: "https://x/y/")
            == "https://t/new?about=https%3A%2F%2Fx%2Fy%2F&t=Fan")
        // Every page of the site has the Manual button, named as the manual is.
        #expect(Fixtures.read(output + "/index.html").contains("<a class=\"help\" href=\"manual/\">Manual</a>"))
        #expect(Fixtures.read(output + "/search/index.html").contains("<a class=\"help\" href=\"../manual/\">Manual</a>"))
    }

    @Test("Without SUMMARY.md, pages are ordered by weight, title and name, with folders nested")
    func folderOrder() throws {
        let site = Fixtures.temporaryFolder()
        let files = [
            "index.md": "# Home\n",
            "zeta.md": "---\nweight: -1\n---\n# Zeta first by weight\n",
            "alpha.md": "# Beta by title\n",
            "beta.md": "# Alpha by title\n",
            "parts/index.md": "---\nweight: 5\n---\n# Parts\n",
            "parts/motor.md": "# Motor\n",
            "parts/blade.md": "# Blade\n",
        ]
        for (path, text) in files {
            let file = site + "/content/manual/" + path
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        var diagnostics: [Diagnostic] = []
        let manual = ManualLoader().load(SourceFile(root: site, relative: "content/manual"), diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty)
        #expect(manual.order.map { manual.pages[$0].title }
            == ["Home", "Zeta first by weight", "Alpha by title", "Beta by title", "Parts", "Blade", "Motor"])
        #expect(manual.entries.map(\.depth) == [0, 0, 0, 0, 0, 1, 1])
        #expect(manual.entries[5].parent == 4)
    }

    @Test("index.md wins over README.md, and a symbolic link is reported, not followed or dropped silently")
    func shadowedAndLinkedFiles() throws {
        let site = Fixtures.temporaryFolder()
        let manual = site + "/content/manual"
        try FileManager.default.createDirectory(atPath: manual, withIntermediateDirectories: true)
        try "# Home\n".write(toFile: manual + "/index.md", atomically: true, encoding: .utf8)
        try "# Read me\n".write(toFile: manual + "/README.md", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: manual + "/passwords.txt", withDestinationPath: "/etc/passwd")
        var diagnostics: [Diagnostic] = []
        let loaded = ManualLoader().load(SourceFile(root: site, relative: "content/manual"), diagnostics: &diagnostics)
        #expect(loaded.pages.map(\.title) == ["Home"])
        #expect(loaded.assets.isEmpty)
        #expect(diagnostics.sortedByLocation().map(\.description) == [
            "content/manual/README.md:1:1: warning: index.md is already this folder's page; this file is not published",
            "content/manual/passwords.txt:1:1: error: \(Problem.symbolicLink.message)",
        ])
    }

    @Test("SUMMARY.md: any indent width nests, drafts and separators are kept, other lines are warnings")
    func summaryParser() {
        let text = "# Summary\n\n[Intro](README.md)\n\n# Part one\n\n* [A](a.md)\n  * [B](b%20c.md)\n    * [C](<c.md>)\n* [Draft]()\n\n***\n\nSome prose.\n"
        var diagnostics: [Diagnostic] = []
        let items = SummaryParser.parse(text, file: SourceFile(root: "/s", relative: "content/manual/SUMMARY.md"),
                                        diagnostics: &diagnostics)
        #expect(items.map(\.title) == ["Intro", "Part one", "A", "B", "C", "Draft", ""])
        #expect(items.map(\.depth) == [0, 0, 0, 1, 2, 0, 0])
        #expect(items[3].kind == .chapter(link: "b c.md"))
        #expect(items[4].kind == .chapter(link: "c.md"))
        #expect(items[5].kind == .chapter(link: nil))
        #expect(items[6].kind == .separator)
        #expect(diagnostics.map(\.description) == [
            "content/manual/SUMMARY.md:14:1: warning: expected a link like '- [Title](page.md)', a '# Part' heading or '---'; the line is ignored",
        ])
    }

    @Test("A long manual shares one navigation file: its navigation stays a small share of its pages")
    func longManual() throws {
        let site = Fixtures.temporaryFolder()
        let paragraph = String(repeating: "A teardown manual page explains one step of taking a machine apart. ", count: 40)
        for number in 1...200 {
            let file = site + "/content/manual/page-\(number).md"
            try FileManager.default.createDirectory(atPath: site + "/content/manual", withIntermediateDirectories: true)
            try "---\nweight: \(number)\n---\n# Step \(number)\n\n\(paragraph)\n".write(toFile: file, atomically: true, encoding: .utf8)
        }
        try SiteBuilder(siteRoot: site, pagefind: .notInstalled).build()
        let output = site + "/public/manual"
        let navigation = try #require(FileManager.default.contents(atPath: output + "/nav.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: navigation) as? [String: Any])
        #expect((json["entries"] as? [[String: Any]])?.count == 200)
        var total = 0, navigationBytes = 0
        for number in 1...200 {
            let html = Fixtures.read(output + "/page-\(number)/index.html")
            total += html.utf8.count
            let start = try #require(html.range(of: "<nav class=\"manual-nav\""))
            let end = try #require(html.range(of: "</nav>", range: start.upperBound..<html.endIndex))
            navigationBytes += html[start.lowerBound..<end.upperBound].utf8.count
            #expect(html.contains("data-navigation=\"../nav.json\""))
        }
        #expect(Double(navigationBytes) / Double(total) < 0.05, "navigation is \(navigationBytes) of \(total) bytes")
        #expect(Fixtures.read(output + "/index.html").contains("<a href=\"page-200/\">Step 200</a>"),
                "without JavaScript, the contents page (the manual's address, as it has no index page) has the whole tree")
    }

    @Test("A machine's manual is published under the machine and linked from its page")
    func machineManual() throws {
        let site = Fixtures.temporaryFolder()
        try FileManager.default.copyItem(atPath: Fixtures.demoSite + "/content", toPath: site + "/content")
        try SiteBuilder(siteRoot: site, output: site + "/public", pagefind: .notInstalled).build()
        let fan = Fixtures.read(site + "/public/machines/desk-fan/index.html")
        #expect(fan.contains("<a href=\"manual/\">Desk fan manual</a>"))
        let safety = Fixtures.read(site + "/public/machines/desk-fan/manual/safety/index.html")
        #expect(safety.contains("<a href=\"../cleaning/#before-you-start\">Cleaning</a>"))
        #expect(safety.contains("<meta name=\"pagefind-machine\" data-pagefind-filter=\"machine[content]\" content=\"Desk fan\">"))
        #expect(TextFile.exists(site + "/public/machines/desk-fan/manual/print/index.html"))
    }
}
