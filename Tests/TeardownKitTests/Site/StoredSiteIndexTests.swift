import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownBuild

/// The stored site index's lists are decoded only by the pages that show them.
@Suite("The stored site index")
struct StoredSiteIndexTests {
    @Test("A comment decodes none of the index's lists; a template edit decodes those of the pages it renders, as a full build makes them")
    func listsDecodedWhenShown() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = site + "/public"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        try builder.build()
        try "---\nauthor: Ada\ndate: 2024-05-02\n---\nA comment.\n"
            .write(toFile: site + "/content/machines/box/parts/lid/comments/stored-index.md", atomically: false, encoding: .utf8)
        let madeBefore = counts[.siteIndexesMade]
        #expect(try builder.build().written > 0)
        #expect(counts[.siteIndexesMade] == madeBefore, "the index is the stored one")
        #expect(counts[.indexListsDecoded] == 0, "nothing the comment changed shows a list of the index")

        // The parts A-Z pages rendered again by a template of the site's own, from the stored index.
        let templates = site + "/Themes/default/templates"
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
        let parts = try String(contentsOfFile: Fixtures.demoSite + "/Themes/default/templates/parts.mustache", encoding: .utf8)
        try (parts + "{{! edited }}\n").write(toFile: templates + "/parts.mustache", atomically: false, encoding: .utf8)
        #expect(try builder.build().written > 0)
        #expect(counts[.siteIndexesMade] == madeBefore)
        #expect(counts[.indexListsDecoded] > 0)

        let full = site + "/public-full"
        try SiteBuilder(siteRoot: site, output: full, full: true, cacheFolder: full + ".cache", pagefind: .notInstalled).build()
        let pages = try FileManager.default.subpathsOfDirectory(atPath: output + "/parts").filter { $0.hasSuffix(".html") }
        #expect(!pages.isEmpty)
        for page in pages {
            #expect(FileManager.default.contents(atPath: output + "/parts/" + page) == FileManager.default.contents(atPath: full + "/parts/" + page),
                    "\(page)")
        }
    }
}
