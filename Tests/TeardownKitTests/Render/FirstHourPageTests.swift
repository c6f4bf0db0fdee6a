import Foundation
import Testing
@testable import TeardownBuild

/// Pages a publisher meets in the first hour: a description that opens with a title, and a
/// machine's own manual.
@Suite("First-hour pages")
struct FirstHourPageTests {
    @Test("A description or comment that opens with '# Title' leaves its page one h1: entry headings start at h3")
    func oneHeadingOne() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let machine = site + "/content/machines/box"
        try "# The box, explained\n\nIt holds things.\n\n## Inside\n\n###### Deep\n".write(toFile: machine + "/description.md",
                                                                                           atomically: true, encoding: .utf8)
        try "---\nauthor: Ada\ndate: 2024-05-02\n---\n# My verdict\n\nGood box.\n".write(
            toFile: machine + "/parts/lid/comments/verdict.md", atomically: true, encoding: .utf8)
        let output = (site as NSString).deletingLastPathComponent + "/public"
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        let page = Fixtures.read(output + "/machines/box/index.html")
        #expect(page.components(separatedBy: "<h1").count - 1 == 1)
        #expect(page.contains("<h3>The box, explained</h3>"))
        #expect(page.contains("<h4>Inside</h4>"))
        #expect(page.contains("<h6>Deep</h6>"), "h6 stays h6")
        let part = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        #expect(part.components(separatedBy: "<h1").count - 1 == 1)
        #expect(part.contains("<h3>My verdict</h3>"))
    }

    @Test("A machine's manual leads back to its machine, says its title once, and keeps Next on the right")
    func machineManual() throws {
        let output = Fixtures.temporaryFolder() + "/public"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        try SiteBuilder(siteRoot: Fixtures.demoSite, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        let front = Fixtures.read(output + "/machines/desk-fan/manual/index.html")
        #expect(front.contains("<title>Desk fan user manual ·"), "not 'Desk fan user manual — Desk fan manual'")
        #expect(front.contains("<nav class=\"breadcrumbs\" aria-label=\"Breadcrumbs\" data-pagefind-ignore><a href=\"../\">Desk fan</a> › "))
        let safety = Fixtures.read(output + "/machines/desk-fan/manual/safety/index.html")
        #expect(safety.contains("<title>Safety — Desk fan manual ·"))
        #expect(safety.contains("<a href=\"../../\">Desk fan</a> › <a href=\"../\">Desk fan manual</a> › "))
        let contents = Fixtures.read(output + "/machines/desk-fan/manual/contents/index.html")
        #expect(contents.contains("<a href=\"../../\">Desk fan</a> › "))
        let style = Fixtures.read(output + "/assets/style.css")
        #expect(style.contains(".prev-next a[rel=\"next\"] { margin-left: auto;"))
        // The site's own manual is not a machine's: no machine in its crumbs.
        #expect(!Fixtures.read(output + "/manual/index.html").contains("Desk fan</a> ›"))
    }

    @Test("A part's thumbnail in the A-Z index looks at the part: a small one fills its window, a large one shows whole")
    func partThumbnails() throws {
        let output = Fixtures.temporaryFolder() + "/public"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        try SiteBuilder(siteRoot: Fixtures.demoSite, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        let page = Fixtures.read(output + "/parts/c/index.html")
        // The stack's width in its square window, and where its top left corner is, in percent of the window.
        func window(of part: String) throws -> (width: Double, left: Double, top: Double) {
            let entry = try #require(page.components(separatedBy: "<li>").first { $0.contains(">\(part)</a> <small>") })
            let match = try #require(entry.firstMatch(of: /class="stack" style="[^"]*; width: ([-\d.]+)%; left: ([-\d.]+)%; top: ([-\d.]+)%"/))
            return (Double(match.output.1)!, Double(match.output.2)!, Double(match.output.3)!)
        }
        // The CMOS battery is a coin on an 800 x 600 motherboard: the window is a few times narrower than the machine.
        let battery = try window(of: "CMOS battery")
        #expect(battery.width > 500, "\(battery)")
        // The window stays on the canvas: the stack's corner is at or left of and above the window's.
        #expect(battery.left <= 0 && battery.top <= 0 && battery.left + battery.width >= 100)
        // The case is nearly the whole machine: it is shown whole, centred.
        let casing = try window(of: "Case")
        #expect(casing.width < 150, "\(casing)")
    }

    @Test("Every page links an icon that is published; site.yaml's favicon replaces the theme's, and a wrong one is named")
    func favicon() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = (site as NSString).deletingLastPathComponent + "/public"
        let build = { try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build() }
        _ = try build()
        let part = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        #expect(part.contains("<link rel=\"icon\" href=\"../../../../assets/favicon.svg\" type=\"image/svg+xml\">"))
        #expect(Fixtures.read(output + "/assets/favicon.svg").contains("<svg"))

        let settings = site + "/content/site.yaml"
        let original = Fixtures.read(settings)
        try FileManager.default.copyItem(atPath: site + "/content/machines/box/parts/lid/lid.svg", toPath: site + "/content/icon.svg")
        try (original + "\nfavicon: icon.svg\n").write(toFile: settings, atomically: true, encoding: .utf8)
        _ = try build()
        #expect(Fixtures.read(output + "/index.html").contains("<link rel=\"icon\" href=\"favicon.svg\" type=\"image/svg+xml\">"))
        #expect(Fixtures.read(output + "/favicon.svg") == Fixtures.read(site + "/content/icon.svg"))

        for (value, message) in [("../secret.svg", "must be an .svg, .png or .ico file in content/"), ("gone.png", "missing content/gone.png")] {
            try (original + "\nfavicon: \(value)\n").write(toFile: settings, atomically: true, encoding: .utf8)
            let diagnostics = SiteBuilder(siteRoot: site).check()
            let line = original.split(separator: "\n", omittingEmptySubsequences: false).count + 1
            #expect(diagnostics.contains { $0.problem.message.contains(message) && $0.location.line == line && $0.severity == .error },
                    "\(diagnostics)")
        }
    }

    @Test("Counts read as a person would write them: no '0 comments' above the designer's entry, no '0 photos' above 'No photos yet'")
    func copy() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = (site as NSString).deletingLastPathComponent + "/public"
        try "The box, described.\n".write(toFile: site + "/content/machines/box/description.md", atomically: true, encoding: .utf8)
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        let machine = Fixtures.read(output + "/machines/box/index.html")
        #expect(machine.contains("<h2 id=\"discussion-title\" data-pagefind-ignore>Discussion</h2>"), "no count when nobody has commented")
        #expect(machine.contains("The box, described."))
        #expect(machine.contains("No comments yet."), "the designer's entry is not a comment")
        // The parts list says only what there is: the lid's one comment, no "0 photos".
        #expect(machine.contains(">Lid</a> <small data-pagefind-ignore>1 comment</small></li>"), "\(machine)")
        #expect(!machine.contains("0 photos") && !machine.contains("0 comments"))
        #expect(Plural.list((0, "comment"), (0, "photo")) == nil && Plural.list((0, "comment"), (2, "photo")) == "2 photos")
        let lid = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        #expect(lid.contains(">Discussion <small data-pagefind-ignore>1 comment</small>"))
        #expect(!lid.contains("No comments yet."))
        let photos = Fixtures.read(output + "/photos/index.html")
        #expect(photos.contains("No photos yet.") && !photos.contains("0 photos"))
    }
}
