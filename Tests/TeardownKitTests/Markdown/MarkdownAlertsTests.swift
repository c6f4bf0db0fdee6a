import Testing
@testable import TeardownContent

@Suite("GitHub alerts and task lists")
struct MarkdownAlertsTests {
    let renderer = MarkdownRenderer()

    @Test("Each of the five alerts is a titled box without its marker; other quotes stay quotes", arguments: MarkdownRenderer.alertKinds.sorted(by: <))
    func alerts(kind: String, title: String) {
        for trust in [MarkdownRenderer.Trust.community, .designer(allowHTML: false)] {
            let html = renderer.render("> [!\(kind)]\n> Mind the *hot* plate.\n\nAfter.\n", trust: trust)
            #expect(html.hasPrefix("<div class=\"alert alert-\(title.lowercased())\" role=\"note\">\n<p class=\"alert-title\">\(title)</p>\n<p>Mind the <em>hot</em> plate.</p>\n</div>"),
                    "\(html)")
            #expect(!html.contains("[!") && !html.contains("<blockquote>"))
        }
    }

    @Test("A marker alone, a lower-case marker, an unknown one and a plain quote")
    func edges() {
        #expect(renderer.render("> [!note]\n\n> Quoted.\n", trust: .community)
            == "<div class=\"alert alert-note\" role=\"note\">\n<p class=\"alert-title\">Note</p>\n</div>\n<blockquote>\n<p>Quoted.</p>\n</blockquote>\n")
        #expect(renderer.render("> [!HINT]\n> Not an alert.\n", trust: .community).hasPrefix("<blockquote>\n<p>[!HINT]"))
        #expect(renderer.render("> [!NOTE] and more on the line\n", trust: .community).hasPrefix("<blockquote>"))
    }

    @Test("Task lists are checkboxes, not brackets")
    func taskLists() {
        let html = renderer.render("- [x] Complete task\n- [ ] Open task\n", trust: .community)
        #expect(html.contains("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> Complete task"))
        #expect(html.contains("<input type=\"checkbox\" disabled=\"\" /> Open task"))
        #expect(!html.contains("[x]"))
    }
}

@Suite("Definition lists")
struct MarkdownDefinitionListTests {
    let renderer = MarkdownRenderer()

    /// Without the line breaks around tags; one inside text is a soft break, kept as a space.
    func compact(_ html: String) -> String {
        html.replacingOccurrences(of: ">\n", with: ">").replacingOccurrences(of: "\n<", with: "<").replacingOccurrences(of: "\n", with: " ")
    }

    @Test("Terms, then definitions on lines starting with ': ', with their inline markup")
    func tight() {
        let html = renderer.render("Apple\n: Pomaceous *fruit*.\n: A company.\n\nAfter.\n", trust: .community)
        #expect(compact(html) == "<dl><dt>Apple</dt><dd>Pomaceous <em>fruit</em>.</dd><dd>A company.</dd></dl><p>After.</p>", "\(html)")
    }

    @Test("Groups after blank lines make one list; a term may have a blank line before its definition; a line under a definition goes on with it")
    func loose() {
        let html = renderer.render("Watt\n: Power: one joule\n  a second.\n\nVolt\n\n: Potential.\n", trust: .designer(allowHTML: false))
        #expect(compact(html) == "<dl><dt>Watt</dt><dd>Power: one joule a second.</dd><dt>Volt</dt><dd>Potential.</dd></dl>", "\(html)")
    }

    @Test("Two terms share a definition; text without ': ' lines, a colon inside a line and a quote stay as they were")
    func edges() {
        #expect(compact(renderer.render("Fuse\nBreaker\n: Stops a fault.\n", trust: .community))
            == "<dl><dt>Fuse</dt><dt>Breaker</dt><dd>Stops a fault.</dd></dl>")
        #expect(renderer.render("Ratio: 3:1\nand more.\n", trust: .community) == "<p>Ratio: 3:1\nand more.</p>\n")
        #expect(renderer.render(":not a definition\n", trust: .community) == "<p>:not a definition</p>\n")
        #expect(renderer.render(": alone, with nothing before\n", trust: .community) == "<p>: alone, with nothing before</p>\n")
    }
}
