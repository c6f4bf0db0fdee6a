import TeardownBase

/// GitHub-style anchors for headings: lower case, letters, digits, `-` and `_` kept, spaces
/// turned into `-`, everything else dropped; a repeated anchor gets `-1`, `-2`, ... So a link
/// written against the file on GitHub keeps working on the site.
package enum HeadingAnchors {
    package static func slug(_ text: String) -> String {
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
    package static func ids(for headings: [MarkdownDocument.Heading]) -> [String] {
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
    package static func inject(_ ids: [String], levels: [Int], into html: String, prefix: String = "") -> String {
        guard !ids.isEmpty else { return html }
        let bytes = Array(html.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + ids.count * 24)
        var copied = 0
        var index = 0
        for (id, level) in zip(ids, levels) {
            // cmark-gfm writes a heading's opening tag as exactly "<hN>".
            let tag = Array("<h\(level)>".utf8)
            while index + tag.count <= bytes.count, !bytes[index..<index + tag.count].elementsEqual(tag) {
                index += 1
            }
            guard index + tag.count <= bytes.count else { break }
            output += bytes[copied..<index]
            output += Array("<h\(level) id=\"\(HTMLEscaping.attribute(prefix + id))\">".utf8)
            index += tag.count
            copied = index
        }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }
}
