import Foundation
import TeardownBase

/// Reads SUMMARY.md in mdBook's format, so an existing mdBook manual drops in:
///
///     # Summary                      <- the file's own title, ignored
///     [Introduction](README.md)      <- a chapter outside the list (prefix or suffix)
///     # User guide                   <- a part heading
///     - [Installing](guide/install.md)
///         - [On Debian](guide/debian.md)
///     - [Not written yet]()          <- a draft: listed, no page
///     ---                            <- a separator
package struct SummaryParser {
    package struct Item: Equatable {
        package enum Kind: Equatable {
            /// A chapter; the link is as written, nil for a draft.
            case chapter(link: String?)
            case part
            case separator
        }
        package let kind: Kind
        package let title: String
        package let depth: Int
        package let line: Int
    }

    package static func parse(_ text: String, file: SourceFile, diagnostics: inout [Diagnostic]) -> [Item] {
        var items: [Item] = []
        // Indentation of each open list level, so any consistent indent width nests.
        var indents: [Int] = []
        var seenTitle = false
        var inComment = false
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inComment {
                if trimmed.contains("-->") { inComment = false }
                continue
            }
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("<!--") {
                inComment = !trimmed.contains("-->")
                continue
            }
            if trimmed.hasPrefix("#") {
                let title = trimmed.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                // The first heading before any entry names the file ("# Summary"), not a part.
                if !seenTitle && items.isEmpty {
                    seenTitle = true
                } else {
                    items.append(Item(kind: .part, title: title, depth: 0, line: number))
                }
                indents = []
                continue
            }
            if isSeparator(trimmed) {
                items.append(Item(kind: .separator, title: "", depth: 0, line: number))
                indents = []
                continue
            }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.reduce(0) { $0 + ($1 == "\t" ? 4 : 1) }
            var body = trimmed[...]
            var depth = 0
            if let marker = body.first, "-*+".contains(marker), body.dropFirst().first == " " {
                body = body.dropFirst(2).drop { $0 == " " }
                while let last = indents.last, last > indent { indents.removeLast() }
                if indents.last != indent { indents.append(indent) }
                depth = indents.count - 1
            } else {
                indents = []
            }
            guard let (title, link) = parseLink(body) else {
                diagnostics.append(.warning(.summaryLine, at: file.location(line: number, column: indent + 1)))
                continue
            }
            items.append(Item(kind: .chapter(link: link), title: title, depth: depth, line: number))
        }
        return items
    }

    private static func isSeparator(_ line: String) -> Bool {
        guard let first = line.first, "-*_".contains(first) else { return false }
        let marks = line.filter { $0 != " " }
        return marks.count >= 3 && marks.allSatisfy { $0 == first }
    }

    /// `[Title](target)` with nothing after it; the target is nil when empty (a draft).
    private static func parseLink(_ text: Substring) -> (String, String?)? {
        guard text.first == "[" else { return nil }
        var title = ""
        var index = text.index(after: text.startIndex)
        var nesting = 0
        while index < text.endIndex {
            let character = text[index]
            if character == "\\", text.index(after: index) < text.endIndex {
                index = text.index(after: index)
                title.append(text[index])
            } else if character == "[" {
                nesting += 1
                title.append(character)
            } else if character == "]" {
                if nesting == 0 { break }
                nesting -= 1
                title.append(character)
            } else {
                title.append(character)
            }
            index = text.index(after: index)
        }
        guard index < text.endIndex else { return nil }
        var rest = text[text.index(after: index)...]
        guard rest.first == "(", rest.last == ")" else { return nil }
        rest = rest.dropFirst().dropLast()
        var target = rest.trimmingCharacters(in: .whitespaces)
        if target.hasPrefix("<") && target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
        let plainTitle = title.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
        return (plainTitle, target.isEmpty ? nil : (target.removingPercentEncoding ?? target))
    }
}
