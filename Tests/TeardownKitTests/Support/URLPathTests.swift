import Testing
@testable import TeardownKit

@Suite("Site URLs")
struct URLPathTests {
    @Test("Links are relative to the page, so a site works under any sub-path", arguments: [
        ("/assets/style.css", "/machines/pc/", "../../assets/style.css"),
        ("/", "/machines/pc/parts/cpu/", "../../../../"),
        ("/machines/pc/", "/machines/pc/", "./"),
        ("/machines/pc/parts/cpu/", "/machines/pc/", "parts/cpu/"),
        ("/machines/pc/", "/", "machines/pc/"),
        ("/404.html", "/manual/", "../404.html"),
    ])
    func relative(target: String, base: String, expected: String) {
        #expect(URLPath(target).relative(from: URLPath(base)) == expected)
    }

    @Test("A page URL maps to its index.html")
    func outputPath() {
        #expect(URLPath.root.outputPath == "index.html")
        #expect(URLPath.page("machines", "pc").outputPath == "machines/pc/index.html")
        #expect(URLPath("/assets/style.css").outputPath == "assets/style.css")
    }

    @Test("Dates parse from ISO 8601 forms and reject the rest")
    func dates() {
        #expect(ISODate("2024-05-01")?.day == "2024-05-01")
        #expect(ISODate("2024-05-01T10:30:00Z")?.hasTime == true)
        #expect(ISODate("2024-05-01 10:30+02:00") != nil)
        #expect(ISODate("2024-02-30") == nil)
        #expect(ISODate("yesterday") == nil)
        #expect(ISODate("2024-05-01T25:00") == nil)
    }
}
