import Foundation
import Testing
@testable import TeardownContent
@testable import TeardownBuild

/// The lists that grow with the catalog, on a tiny site with two items a page: two machines
/// and five parts tagged alike, the parts named alike, and a collection of three machines.
@Suite("Pages of tags, collections and letters")
struct ListPaginationTests {
    private struct Site {
        let root: String
        let output: String

        init() throws {
            root = Fixtures.copy(Fixtures.site("minimal"))
            output = (root as NSString).deletingLastPathComponent + "/public"
            let machines = root + "/content/machines/"
            for number in 1...5 {
                try write("name: \"Panel \(number)\"\ntags: [power]\nlayer:\n  image: panel.svg\n  z: \(number + 1)\n",
                          to: "content/machines/box/parts/panel-\(number)/part.yaml")
                try FileManager.default.copyItem(atPath: machines + "box/parts/lid/lid.svg",
                                                 toPath: machines + "box/parts/panel-\(number)/panel.svg")
            }
            try FileManager.default.copyItem(atPath: machines + "box", toPath: machines + "crate")
            try FileManager.default.copyItem(atPath: machines + "box", toPath: machines + "chest")
            for name in ["crate", "chest"] {
                try write("name: \"\(name.capitalized)\"\ncanvas: {width: 200, height: 100}\ntags: [power]\n",
                          to: "content/machines/\(name)/machine.yaml")
                for number in 1...5 {
                    try FileManager.default.removeItem(atPath: machines + "\(name)/parts/panel-\(number)")
                }
            }
            try write(Fixtures.read(root + "/content/site.yaml")
                      + "search: false\nlist_page_size: 2\ncollections:\n  all:\n    title: \"All of them\"\n    machines: [box, chest, crate]\n",
                      to: "content/site.yaml")
        }

        func write(_ text: String, to path: String) throws { try Fixtures.write(text, to: path, in: root) }

        @discardableResult
        func build() throws -> SiteBuilder.Report {
            try SiteBuilder(siteRoot: root, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        }

        func page(_ path: String) -> String { Fixtures.read(output + "/" + path + "index.html") }
        func exists(_ path: String) -> Bool { TextFile.exists(output + "/" + path + "index.html") }
    }

    @Test("A tag's machines and parts run over pages of two, linked first to last")
    func tagPages() throws {
        let site = try Site()
        let report = try site.build()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        // Chest and Crate, then Panels 1 and 2, 3 and 4, and 5.
        let first = site.page("tags/power/"), second = site.page("tags/power/2/"), last = site.page("tags/power/4/")
        #expect(!site.exists("tags/power/5/"))
        #expect(first.contains("machines/chest/") && first.contains("machines/crate/") && !first.contains("Panel"))
        #expect(second.contains("Panel 1") && second.contains("Panel 2") && !second.contains("Panel 3") && !second.contains("machines/crate/\""))
        #expect(site.page("tags/power/3/").contains("Panel 4"))
        #expect(last.contains("Panel 5") && !last.contains("Panel 4"))
        #expect(first.contains("rel=\"next\" href=\"2/\"") && !first.contains("rel=\"prev\""))
        #expect(second.contains("rel=\"prev\" href=\"../\"") && second.contains("rel=\"next\" href=\"../3/\""))
        #expect(last.contains("rel=\"prev\" href=\"../3/\"") && !last.contains("rel=\"next\""))
        #expect(second.contains("<title>Tagged power, page 2"))
        #expect(Fixtures.read(site.output + "/sitemap-site.xml").contains("tags/power/4/"))
    }

    @Test("A list of many pages links its last page and those near the current one, and marks the pages left out")
    func barWindow() throws {
        let site = try Site()
        try site.write(Fixtures.read(site.root + "/content/site.yaml").replacingOccurrences(of: "list_page_size: 2", with: "list_page_size: 1"),
                       to: "content/site.yaml")
        try site.build()
        // Seven pages: Chest, Crate, then Panels 1 to 5.
        let first = site.page("tags/power/"), middle = site.page("tags/power/4/")
        #expect(first.contains("<a href=\"3/\">3</a>") && first.contains("<a href=\"7/\">7</a>"))
        #expect(!first.contains("href=\"4/\"") && first.contains("<span class=\"gap\" aria-hidden=\"true\">…</span>"))
        #expect(middle.contains("<a href=\"../7/\">7</a>") && middle.contains("<a href=\"../\">1</a>"))
        #expect(!middle.contains("class=\"gap\""), "two pages either side of page 4 leave none out")
    }

    @Test("Parts A-Z of a catalog too large to list on one page says how many parts each letter holds")
    func letterCounts() throws {
        let site = try Site()
        let machines = site.root + "/content/machines/"
        let listed = PageRenderer.partsListedOnIndex
        for number in 6...listed {
            try site.write("name: \"Panel \(number)\"\nlayer:\n  image: panel.svg\n  z: \(number + 1)\n",
                           to: "content/machines/box/parts/panel-\(number)/part.yaml")
            try FileManager.default.copyItem(atPath: machines + "box/parts/lid/lid.svg",
                                             toPath: machines + "box/parts/panel-\(number)/panel.svg")
        }
        try site.build()
        // The box's lid and its panels, and the lids of the chest and crate: more than the page lists.
        let index = site.page("parts/")
        #expect(!index.contains("Panel 1<"), "the parts are not listed")
        #expect(index.contains("<a href=\"l/\"><span class=\"letter\">L</span> <span class=\"count\">3 parts</span></a>"), "\(index)")
        #expect(index.contains("<a href=\"p/\"><span class=\"letter\">P</span> <span class=\"count\">\(listed) parts</span></a>"))
    }

    @Test("A letter of Parts A-Z and a collection are paginated the same way")
    func letterAndCollectionPages() throws {
        let site = try Site()
        try site.build()
        // Panels 1-5 of the box: three pages of the letter P.
        #expect(site.page("parts/p/").contains("Panel 1") && site.page("parts/p/3/").contains("Panel 5"))
        #expect(!site.exists("parts/p/4/"))
        #expect(site.page("parts/p/2/").contains("rel=\"prev\" href=\"../\""))
        let collection = site.page("collections/all/"), rest = site.page("collections/all/2/")
        #expect(collection.contains("Box") && collection.contains("Chest") && !collection.contains(">Crate<"))
        #expect(rest.contains("Crate") && rest.contains("rel=\"prev\""))
        #expect(!site.exists("collections/all/3/"))
    }

    @Test("The catalog of machines comes in pages; its first page keeps the site's address and the collections")
    func catalogPages() throws {
        let site = try Site()
        try site.build()
        let first = site.page(""), second = site.page("page/2/")
        #expect(first.contains("machines/box/") && first.contains("machines/chest/") && !first.contains("machines/crate/"))
        #expect(second.contains("machines/crate/") && !second.contains("machines/box/\""))
        #expect(first.contains("rel=\"next\" href=\"page/2/\"") && second.contains("rel=\"prev\" href=\"../../\""))
        #expect(first.contains("All of them") && !second.contains("All of them"))
        #expect(second.contains("<title>Machines, page 2"))
        #expect(!site.exists("page/3/"))
    }

    @Test("A page whose items are gone disappears, and the last page loses its link onward")
    func pagesGoWithTheirItems() throws {
        let site = try Site()
        try site.build()
        for number in 3...5 {
            try FileManager.default.removeItem(atPath: site.root + "/content/machines/box/parts/panel-\(number)")
        }
        let report = try site.build()
        #expect(report.removed >= 2)
        // Chest, Crate and Panels 1 and 2 are left: two pages of the tag, one of the letter.
        #expect(!site.exists("tags/power/3/") && !site.exists("tags/power/4/") && !site.exists("parts/p/2/"))
        #expect(!site.page("tags/power/2/").contains("rel=\"next\""))
        #expect(!Fixtures.read(site.output + "/sitemap-site.xml").contains("tags/power/3/"))
    }
}

@Suite("The pagination bar")
struct PaginationBarTests {
    private func bar(_ count: Int, at number: Int) -> String {
        guard let model = PageRenderer.pagination(count, current: number, link: { "\($0)" }) else { return "" }
        return model.pages.map { ($0.gapBefore ? "… " : "") + ($0.current ? "[\($0.number)]" : "\($0.number)") }
            .joined(separator: " ")
    }

    @Test("A long list's bar links its first and last pages and two either side of the current one, with a gap where pages are left out")
    func window() {
        #expect(bar(1, at: 1) == "")
        #expect(bar(5, at: 3) == "1 2 [3] 4 5")
        #expect(bar(500, at: 1) == "[1] 2 3 … 500")
        #expect(bar(500, at: 250) == "1 … 248 249 [250] 251 252 … 500")
        #expect(bar(500, at: 4) == "1 2 3 [4] 5 6 … 500")
        #expect(bar(500, at: 5) == "1 2 3 4 [5] 6 7 … 500", "a gap of one page shows the page")
        #expect(bar(500, at: 500) == "1 … 498 499 [500]")
    }
}
