import Testing
@testable import TeardownContent

@Suite("Markdown safety")
struct MarkdownSafetyTests {
    let markdown = MarkdownRenderer()

    @Test("A comment's <script> never reaches the page")
    func scriptIsOmitted() {
        let html = markdown.render("Hi <script>alert('x')</script> there", trust: .community)
        #expect(!html.contains("<script"))
        #expect(html.contains("Hi"))
    }

    @Test("An <img onerror> in a comment loses its handler")
    func imageHandlerIsOmitted() {
        let html = markdown.render("<img src=x onerror=\"alert(1)\">", trust: .community)
        #expect(!html.contains("onerror"))
        #expect(html.contains("<img src=\"x\">"))
    }

    @Test("javascript:, vbscript: and data: links in comments lose their target")
    func dangerousLinksAreInert() {
        for url in ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "vbscript:msgbox(1)", "data:text/html;base64,PHNjcmlwdD4="] {
            let html = markdown.render("[click](\(url))", trust: .community)
            #expect(html.contains("href=\"\""), "\(url) -> \(html)")
            #expect(!html.lowercased().contains(url.lowercased().prefix(10)), "\(url) -> \(html)")
        }
    }

    @Test("Images with data:image URLs and ordinary links stay; comment links are nofollow")
    func safeContentStays() {
        let html = markdown.render("![dot](data:image/png;base64,iVBORw0KGgo=) [site](https://example.org)", trust: .community)
        #expect(html.contains("src=\"data:image/png;base64,iVBORw0KGgo=\""))
        #expect(html.contains("<a rel=\"nofollow ugc\" href=\"https://example.org\">site</a>"))
    }

    @Test("Comments stay safe even when the site allows raw HTML for designers")
    func unsafeSettingIsForDesignersOnly() {
        let raw = "<button onclick=\"go()\">Go</button>"
        #expect(markdown.render(raw, trust: .designer(allowHTML: true)).contains(raw))
        #expect(!markdown.render(raw, trust: .designer(allowHTML: false)).contains("<button"))
        #expect(!markdown.render(raw, trust: .community).contains("<button"))
        // tagfilter still disarms the most dangerous tags for designers.
        #expect(!markdown.render("<script>x</script>", trust: .designer(allowHTML: true)).contains("<script"))
    }

    @Test("GitHub extensions: tables, strikethrough, autolinks, task lists, footnotes")
    func extensions() {
        let html = markdown.render("""
            | a | b |
            |---|---|
            | 1 | 2 |

            ~~old~~ www.example.org

            - [x] done

            Note[^1].

            [^1]: The footnote.
            """, trust: .designer(allowHTML: false))
        #expect(html.contains("<table>"))
        #expect(html.contains("<del>old</del>"))
        #expect(html.contains("href=\"http://www.example.org\""))
        #expect(html.contains("type=\"checkbox\""))
        #expect(html.contains("footnote"))
    }
}
