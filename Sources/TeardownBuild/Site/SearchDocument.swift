import TeardownBase

/// What Pagefind is given for a machine's or part's first page when its discussion runs to
/// more pages: the first page with the later pages' discussions after its own. A comment on
/// page 2 then finds the part, once, rather than a result of its own named "discussion,
/// page 2", and a search's count is a count of parts and machines. The later pages are not
/// given to Pagefind. Visitors are served the pages as rendered; only the index reads this.
///
/// The discussion is found by the default theme's `<section class="discussion"`; a theme
/// without it has its later pages indexed as pages of their own, as before.
package enum SearchDocument {
    private static let opening = Array("<section class=\"discussion\"".utf8)
    private static let sectionOpen = Array("<section".utf8)
    private static let sectionClose = Array("</section>".utf8)

    /// The first page with each later page's discussion section after its own; nil when a
    /// page has no discussion section to join.
    package static func joined(first: [UInt8], later: [[UInt8]]) -> [UInt8]? {
        guard let own = discussion(in: first) else { return nil }
        var joined = Array(first[..<own.upperBound])
        for page in later {
            guard let section = discussion(in: page) else { return nil }
            joined += page[section]
        }
        joined += first[own.upperBound...]
        return joined
    }

    /// From the discussion section's start to the end of its `</section>`, sections inside
    /// it counted. Comments are escaped text: a `<section` in one is `&lt;section`.
    package static func discussion(in html: [UInt8]) -> Range<Int>? {
        guard let start = ByteSearch.find(opening, in: html, from: 0) else { return nil }
        var depth = 1, position = start + opening.count
        while depth > 0 {
            guard let close = ByteSearch.find(sectionClose, in: html, from: position) else { return nil }
            if let open = ByteSearch.find(sectionOpen, in: html, from: position), open < close {
                depth += 1
                position = open + sectionOpen.count
            } else {
                depth -= 1
                position = close + sectionClose.count
            }
        }
        return start..<position
    }
}
