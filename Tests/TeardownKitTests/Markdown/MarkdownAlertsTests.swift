import Testing
@testable import TeardownKit

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
