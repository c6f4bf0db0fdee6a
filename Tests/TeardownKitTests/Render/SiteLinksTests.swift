import Testing
@testable import TeardownContent
@testable import TeardownBuild

@Suite("Site-wide links shared between pages")
struct SiteLinksTests {
    @Test("Pages that agree on depth and first folder have the same site-wide links, for random pages of every section")
    func sharedLinksAreEachPagesOwn() {
        let names = ["machines", "manual", "parts", "tags", "photos", "search", "assets", "collections", "pc", "a", "2"]
        var byKey: [String: SiteLinks] = [:]
        for _ in 0..<5000 {
            let depth = Int.random(in: 0...5)
            let url = URLPath.page((0..<depth).map { _ in names.randomElement()! })
            for favicon in [nil, "ico"] {
                let links = SiteLinks(at: url, favicon: favicon)
                let key = SiteLinks.key(of: url) + "/" + (favicon ?? "")
                if let shared = byKey[key] { #expect(shared == links, "\(url)") } else { byKey[key] = links }
            }
        }
        #expect(SiteLinks(at: URLPath.page(["manual", "intro"]), favicon: nil).help == "../")
        #expect(SiteLinks(at: URLPath.page(["machines", "pc", "parts", "cpu"]), favicon: nil).help == "../../../../manual/")
    }
}
