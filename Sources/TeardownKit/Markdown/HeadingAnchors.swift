/// GitHub-style anchors for headings: lower case, letters, digits, `-` and `_` kept, spaces
/// turned into `-`, everything else dropped; a repeated anchor gets `-1`, `-2`, ... So a link
/// written against the file on GitHub keeps working on the site.
enum HeadingAnchors {
    static func slug(_ text: String) -> String {
        var slug = ""
        for character in text.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                slug.append(character)
            }
        }
        return slug
    }

    /// One anchor per heading, unique on the page.
    static func ids(for headings: [MarkdownDocument.Heading]) -> [String] {
        var used = Set<String>()
        var counts: [String: Int] = [:]
        return headings.map { heading in
            let base = slug(heading.text).isEmpty ? "section" : slug(heading.text)
            var id = base
            while used.contains(id) {
                counts[base, default: 0] += 1
                id = "\(base)-\(counts[base]!)"
            }
            used.insert(id)
            return id
        }
    }

    /// Gives the headings of cmark-gfm's `html` their ids, each prefixed with `prefix`.
    static func inject(_ ids: [String], levels: [Int], into html: String, prefix: String = "") -> String {
        var result = ""
        result.reserveCapacity(html.utf8.count + ids.count * 24)
        var rest = html[...]
        for (id, level) in zip(ids, levels) {
            let tag = "<h\(level)>"
            guard let range = rest.range(of: tag) else { break }
            result += rest[..<range.lowerBound]
            result += "<h\(level) id=\"\(HTMLEscaping.attribute(prefix + id))\">"
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
