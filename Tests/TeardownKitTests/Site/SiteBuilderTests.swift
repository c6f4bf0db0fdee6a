import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

@Suite("Building sites")
struct SiteBuilderTests {
    @Test("The demo catalog builds every page, and every internal link resolves")
    func demoCatalog() throws {
        let output = Fixtures.temporaryFolder() + "/public"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let report = try SiteBuilder(siteRoot: Fixtures.demoSite, output: output, cacheFolder: output + ".cache").build()
        #expect(report.warnings.isEmpty, "\(report.warnings)")

        let (content, _) = ContentLoader(siteRoot: Fixtures.demoSite).load()
        var expected = ["index.html", "404.html", "manual/index.html", "assets/style.css"]
        for machine in content.machines {
            expected.append("machines/\(machine.slug)/index.html")
            for part in machine.parts {
                expected.append("machines/\(machine.slug)/parts/\(part.slug)/index.html")
                expected.append("machines/\(machine.slug)/parts/\(part.slug)/\(part.layer.image.name)")
            }
        }
        for page in content.manual.pages where page.slug != "index" {
            expected.append("manual/\(page.slug)/index.html")
        }
        for path in expected {
            #expect(TextFile.exists(output + "/" + path), "missing \(path)")
        }
        // The DVD drive has more comments than fit on one page.
        #expect(TextFile.exists(output + "/machines/personal-computer/parts/dvd-drive/discussion/2/index.html"))

        let checker = LinkChecker(root: output, basePath: content.config.basePath)
        // Every page is HTML but each machine's machine.json, discussion.json, feed and sitemap,
        // the site's feed, catalog.json and its schema, the sitemap index, the site's sitemap,
        // and robots.txt. (The search's first-answer files are the index's, not pages.)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output + "/search/first").count > 20)
        #expect(checker.htmlFiles().count == report.pages - content.machines.count * 4 - 6)
        #expect(checker.brokenLinks() == [])
        #expect(Fixtures.read(output + "/manual/cli/index.html").contains("<a class=\"report-bug\" href=\"mailto:bugs@example.org?subject=Bug%3A%20The%20command%20line&amp;body="))
    }

    @Test("The catalog shows each machine's cover composed from its layers, name, summary and counts")
    func catalogCards() throws {
        let output = try build("minimal")
        let html = Fixtures.read(output + "/index.html")
        #expect(html.contains("<h3>Box</h3>"))
        #expect(html.contains("A box."))
        #expect(html.contains("1 part · 1 comment · 0 photos"))
        // The canvas is 200 wide, so the composed cover comes in that one width, WebP and JPEG.
        #expect(html.contains("<source type=\"image/webp\" srcset=\"machines/box/cover/cover-200.webp 200w\""))
        #expect(html.contains("src=\"machines/box/cover/cover-200.jpg\""))
        #expect(html.contains("width=\"200\" height=\"100\""))
        #expect(TextFile.exists(output + "/machines/box/cover/cover-200.webp"))
        #expect(html.contains("<li><a href=\"tags/test/\">test</a></li>"))
    }

    @Test("A part page has its layer, specs, and the designer's description before the comments")
    func partPage() throws {
        let output = try build("minimal")
        let html = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        #expect(html.contains("<th scope=\"row\">Mass</th><td><span class=\"spec-value\">1.2 kg</span>"))
        #expect(html.contains("<img src=\"lid.svg\" alt=\"\" class=\"current\""))
        let description = try #require(html.range(of: "The lid’s description."))
        let comment = try #require(html.range(of: "Hello, <strong>lid</strong>."))
        #expect(description.lowerBound < comment.lowerBound)
        #expect(html.contains("href=\"../../\""), "breadcrumb back to the machine")
    }

    @Test("Discussions are paginated five comments a page, newest first")
    func pagination() throws {
        let output = try build("paginated")
        let pages = ["", "discussion/2/", "discussion/3/"].map {
            Fixtures.read(output + "/machines/box/parts/lid/\($0)index.html")
        }
        #expect(pages[0].contains("Hello, <strong>lid</strong>."))
        #expect(pages[0].contains("Comment number 12."))
        #expect(!pages[0].contains("Comment number 8."))
        #expect(pages[1].contains("Comment number 8."))
        #expect(!pages[1].contains("The lid’s description."), "the description opens page 1 only")
        #expect(pages[2].contains("Comment number 1."))
        #expect(pages[2].contains("href=\"../2/\""))
        #expect(!TextFile.exists(output + "/machines/box/parts/lid/discussion/4/index.html"))
    }

    @Test("Hostile comments render inert even with unsafe_html on; the designer's HTML is kept")
    func hostileComments() throws {
        let output = try build("hostile-comments")
        let html = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        // The only scripts on the page are the theme's, loaded from files: the header's (colour
        // scheme and menu), the lightbox, and the unit switch for the part's specs.
        #expect(html.components(separatedBy: "<script").count == 4)
        #expect(html.contains("<script src=\"../../../../assets/scheme.js\"></script>"))
        #expect(html.contains("<script src=\"../../../../assets/lightbox.js\" defer></script>"))
        #expect(html.contains("<script src=\"../../../../assets/units.js\" defer></script>"))
        #expect(!html.contains("onerror="))
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("data:text/html"))
        #expect(html.contains("<span class=\"designer-html\">kept</span>"))
    }

    @Test("A site overrides templates and assets; the rest falls back to the default theme")
    func themeOverride() throws {
        let output = try build("theme-override")
        let part = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        #expect(part.contains("<h1 class=\"workshop\">Lid in the workshop</h1>"))
        #expect(part.contains("Footer from the site's default override"))
        let machine = Fixtures.read(output + "/machines/box/index.html")
        #expect(machine.contains("<h2 id=\"parts-title\">Parts</h2>"), "machine.mustache comes from the default theme")
        #expect(Fixtures.read(output + "/assets/style.css").contains("workshop theme"))
    }

    @Test("A failed build leaves the previous output as it was")
    func failedBuildKeepsPreviousOutput() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = Fixtures.temporaryFolder() + "/public"
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache").build()
        let before = Fixtures.read(output + "/machines/box/index.html")
        try "name: [broken\n".write(toFile: site + "/content/machines/box/machine.yaml", atomically: false, encoding: .utf8)
        #expect(throws: BuildFailure.self) { try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache").build() }
        #expect(Fixtures.read(output + "/machines/box/index.html") == before)
    }

    @Test("Pages of removed content disappear; hidden entries of the output folder are kept")
    func staleOutputIsRemoved() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = Fixtures.temporaryFolder() + "/public"
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache").build()
        try "keep".write(toFile: output + "/.gitkeep", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: site + "/content/machines/box/parts/lid/comments")
        try FileManager.default.removeItem(atPath: site + "/content/manual")
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache").build()
        #expect(Fixtures.read(output + "/.gitkeep") == "keep")
        #expect(!Fixtures.read(output + "/machines/box/parts/lid/index.html").contains("Hello"))
        #expect(TextFile.exists(output + "/manual/index.html"), "the Help link still has a page")
    }

    @Test("A build recovers from one that was killed mid-publish, losing no hidden entry")
    func recoversFromInterruptedPublish() throws {
        let folder = Fixtures.temporaryFolder()
        let output = folder + "/public"
        let files = FileManager.default
        // Killed after the swap: the new site is in place, the old one still holds .git.
        try files.createDirectory(atPath: output, withIntermediateDirectories: true)
        try files.createDirectory(atPath: folder + "/.public.previous/.git", withIntermediateDirectories: true)
        try "ref".write(toFile: folder + "/.public.previous/.git/HEAD", atomically: false, encoding: .utf8)
        // And a staging tree left half-written.
        try files.createDirectory(atPath: folder + "/.public.staging", withIntermediateDirectories: true)
        try "junk".write(toFile: folder + "/.public.staging/half.html", atomically: false, encoding: .utf8)

        try SiteBuilder(siteRoot: Fixtures.site("minimal"), output: output, cacheFolder: output + ".cache").build()
        #expect(Fixtures.read(output + "/.git/HEAD") == "ref")
        #expect(!TextFile.exists(output + "/half.html"))
        #expect(!TextFile.exists(folder + "/.public.previous"))
        #expect(!TextFile.exists(folder + "/.public.staging"))
        #expect(TextFile.exists(output + "/machines/box/index.html"))
    }

    private func build(_ fixture: String) throws -> String {
        let output = Fixtures.temporaryFolder() + "/public"
        try SiteBuilder(siteRoot: Fixtures.site(fixture), output: output, cacheFolder: output + ".cache").build()
        return output
    }
}
