import Testing
@testable import TeardownContent
import TeardownBase

@Suite("Markdown safety")
struct MarkdownSafetyTests {
    let markdown = MarkdownRenderer()

    @Test("A comment's <script> never reaches the page")
    func scriptIsOmitted() {
        let html = markdown.render("Hi <script>alert('x')</script> there", trust: .community)
        #expect(!html.contains("<script"))
        #expect(html.contains("Hi"))
    }

    @Test("An <img onerror> in a comment loses its handler, and loads nothing")
    func imageHandlerIsOmitted() {
        let html = markdown.render("<img src=x onerror=\"alert(1)\">", trust: .community)
        #expect(!html.contains("onerror"))
        #expect(!html.contains("<img"), "\(html)")
        // A designer's is kept.
        #expect(markdown.render("<img src=x onerror=\"alert(1)\">", trust: .designer(allowHTML: false)).contains("<img src=\"x\" alt=\"\">"))
    }

    @Test("A comment's image on another site is a link to it; one by a path is its text alone, with a warning")
    func communityImagesLoadNothing() {
        let text = "![the pixel](https://tracker.example/p.gif) ![local](x.png)\n\n"
            + "<img src=\"//evil.example/a.png\" alt=\"evil\"> <img src=\"photo.jpg\" alt=\"mine\"> <img src=https://b.example/c.png>\n"
        let html = markdown.render(text, trust: .community)
        #expect(!html.contains("<img"), "\(html)")
        #expect(html.contains("<a rel=\"nofollow ugc\" href=\"https://tracker.example/p.gif\">the pixel</a>"), "\(html)")
        #expect(html.contains("<a rel=\"nofollow ugc\" href=\"//evil.example/a.png\">evil</a>"), "\(html)")
        #expect(html.contains("<a rel=\"nofollow ugc\" href=\"https://b.example/c.png\">https://b.example/c.png</a>"), "\(html)")
        #expect(html.contains("local") && html.contains("mine") && !html.contains("x.png") && !html.contains("photo.jpg"), "\(html)")
        var diagnostics: [Diagnostic] = []
        MarkdownSource(text: text, file: SourceFile(root: "/site", relative: "c.md"), firstLine: 5).warnLeftOutHTML(diagnostics: &diagnostics)
        #expect(diagnostics.map(\.description).sorted() == [
            "c.md:5:45: warning: the image 'x.png' is left out: a comment's pictures are the photos sent with it (an image on another site is shown as a link to it)",
            "c.md:7:1: warning: the image 'photo.jpg' is left out: a comment's pictures are the photos sent with it (an image on another site is shown as a link to it)",
        ], "\(diagnostics.map(\.description))")
        // A designer's images stay images.
        #expect(markdown.render(text, trust: .designer(allowHTML: false)).contains("<img src=\"https://tracker.example/p.gif\""))
    }

    @Test("javascript:, vbscript: and data: links in comments lose their target")
    func dangerousLinksAreInert() {
        for url in ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "vbscript:msgbox(1)", "data:text/html;base64,PHNjcmlwdD4="] {
            let html = markdown.render("[click](\(url))", trust: .community)
            #expect(html.contains("href=\"\""), "\(url) -> \(html)")
            #expect(!html.lowercased().contains(url.lowercased().prefix(10)), "\(url) -> \(html)")
        }
    }

    @Test("A data:image in a comment is a link, loading nothing; ordinary links stay; comment links are nofollow")
    func safeContentStays() {
        let html = markdown.render("![dot](data:image/png;base64,iVBORw0KGgo=) [site](https://example.org)", trust: .community)
        #expect(html.contains("href=\"data:image/png;base64,iVBORw0KGgo=\">dot</a>") && !html.contains("<img"), "\(html)")
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
