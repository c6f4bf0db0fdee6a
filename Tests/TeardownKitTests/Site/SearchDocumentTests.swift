import Foundation
import Testing
@testable import TeardownBuild

@Suite("What Pagefind reads of a long discussion")
struct SearchDocumentTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test("The later pages' discussions follow the first page's own, inside its body; the rest of the later pages is left out")
    func joined() {
        let first = "<div data-pagefind-body><h1>Lid</h1><section class=\"discussion\"><p>One</p></section></div><footer>f</footer>"
        let second = "<h1>Lid</h1><ul>parts</ul><section class=\"discussion\"><p>Two</p><section class=\"x\">in</section></section><p>after</p>"
        let third = "<section class=\"discussion\"><p>&lt;section Three</p></section>"
        #expect(text(SearchDocument.joined(first: bytes(first), later: [bytes(second), bytes(third)]))
            == "<div data-pagefind-body><h1>Lid</h1><section class=\"discussion\"><p>One</p></section>"
            + "<section class=\"discussion\"><p>Two</p><section class=\"x\">in</section></section>"
            + "<section class=\"discussion\"><p>&lt;section Three</p></section></div><footer>f</footer>")
    }

    @Test("A page without a discussion section, or with one left open, is not joined")
    func missing() {
        let first = bytes("<section class=\"discussion\"><p>One</p></section>")
        #expect(SearchDocument.joined(first: bytes("<p>no discussion</p>"), later: [first]) == nil)
        #expect(SearchDocument.joined(first: first, later: [bytes("<section class=\"discussion\"><p>open")]) == nil)
        #expect(SearchDocument.discussion(in: bytes("<section class=\"discussion\"><section>")) == nil)
    }
}
