import Testing
@testable import TeardownContent

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

    @Test("Relative links agree with resolving them the long way, for random pairs of paths")
    func relativeAgreesWithComponents() {
        var generator = SystemRandomNumberGenerator()
        let names = ["a", "b", "ab", "machines", "pc", "parts", "%C3%A9t%C3%A9", "style.css", "index.html", ""]
        func path() -> String {
            "/" + (0..<Int.random(in: 0...4, using: &generator)).map { _ in names.randomElement(using: &generator)! }
                .joined(separator: "/")
        }
        for _ in 0..<5000 {
            let target = path(), base = path()
            #expect(URLPath(target).relative(from: URLPath(base)) == Self.componentwise(target, from: base),
                    "\(target) from \(base)")
        }
    }

    /// The same link made by splitting both paths into components and climbing out of the
    /// page's folders that the target does not share.
    static func componentwise(_ target: String, from base: String) -> String {
        let folders = base.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let parts = target.split(separator: "/", omittingEmptySubsequences: false)
        var common = 0
        while common < folders.count, common < parts.count - 1, folders[common] == parts[common] { common += 1 }
        let link = String(repeating: "../", count: folders.count - common) + parts[common...].joined(separator: "/")
        return link.isEmpty ? "./" : link
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
