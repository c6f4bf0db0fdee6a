import Testing
@testable import TeardownBase
@testable import TeardownContent

@Suite("Markdown on all cores")
struct MarkdownConcurrencyTests {
    @Test("Pages rendered at the same time keep their autolinks and strikethrough")
    func parallelRendersAgree() {
        let markdown = MarkdownRenderer()
        // Long documents keep parses overlapping; each holds the characters extensions react to.
        let text = String(repeating: "See http://example.org/a and www.example.org, not ~~this~~ one.\n\n", count: 40)
        let expected = markdown.render(text, trust: .designer(allowHTML: false))
        #expect(expected.contains("<a href=\"http://example.org/a\">") && expected.contains("<del>this</del>"))
        let results = ParallelMap.map(Array(0..<400)) { _ in markdown.render(text, trust: .designer(allowHTML: false)) }
        #expect(results.filter { $0 != expected }.count == 0)
    }
}
