import Foundation
import TeardownBase

/// What a rendered page gives search: the words Pagefind is given (inside `data-pagefind-body`,
/// outside `data-pagefind-ignore`), each with its weight (`data-pagefind-weight`, 1 unless
/// said), and what a result shows: the first heading, the page's kinds and machine (its
/// `pagefind-type` and `pagefind-machine` filters).
///
/// Hand-written: no HTML parser is among the project's dependencies, and a page only needs its
/// tags' names, a few attributes and the character references of text told apart. It reads
/// the HTML Teardown renders, whose elements are closed; a stray close tag ends the elements
/// opened after its own, as browsers do.
package struct IndexedText: Sendable, Equatable {
    package var title = ""
    package var types: [String] = []
    package var machine: String?
    /// Each word (`SearchWords.words`) with the highest weight it is given on the page.
    package var words: [String: UInt8] = [:]

    /// The page's text, or nil when it has none to index.
    package init?(html: [UInt8]) {
        var parser = Parser(html)
        parser.run(into: &self)
        guard parser.sawBody else { return nil }
        title = SearchWords.collapsed(title)
    }

    /// Adds `other`'s words: a discussion's later pages are read as part of its first.
    package mutating func merge(_ other: IndexedText) {
        for (word, weight) in other.words where weight > words[word] ?? 0 { words[word] = weight }
    }

    private struct Element {
        let name: [UInt8]
        let body: Bool
        let ignored: Bool
        let weight: UInt8
        let heading: Bool
    }

    private struct Parser {
        let html: [UInt8]
        var position = 0
        var open: [Element] = []
        var sawBody = false
        var titleDone = false
        var text: [UInt8] = []

        init(_ html: [UInt8]) { self.html = html }

        static let void: Set<[UInt8]> = Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                                              "source", "track", "wbr"].map { Array($0.utf8) })
        static let raw: Set<[UInt8]> = Set(["script", "style", "template", "noscript"].map { Array($0.utf8) })

        mutating func run(into page: inout IndexedText) {
            while position < html.count {
                if html[position] == UInt8(ascii: "<") {
                    flush(into: &page)
                    tag(into: &page)
                } else {
                    text.append(html[position])
                    position += 1
                }
            }
            flush(into: &page)
        }

        /// The text since the last tag, filed under the innermost element.
        mutating func flush(into page: inout IndexedText) {
            guard !text.isEmpty else { return }
            defer { text.removeAll(keepingCapacity: true) }
            guard let top = open.last, top.body, !top.ignored else { return }
            let decoded = Self.decode(text)
            if top.heading, !titleDone { page.title += decoded }
            for word in SearchWords.words(of: decoded) where top.weight > page.words[word] ?? 0 {
                page.words[word] = top.weight
            }
        }

        mutating func tag(into page: inout IndexedText) {
            if html[position...].starts(with: Array("<!--".utf8)) {
                position = ByteSearch.find(Array("-->".utf8), in: html, from: position + 4).map { $0 + 3 } ?? html.count
                return
            }
            let closing = position + 1 < html.count && html[position + 1] == UInt8(ascii: "/")
            var index = position + (closing ? 2 : 1)
            let nameStart = index
            while index < html.count, Self.isNameByte(html[index]) { index += 1 }
            let name = html[nameStart..<index].map { $0 | 0x20 }
            guard !name.isEmpty else {
                // Not a tag: a "<" in text.
                text.append(html[position])
                position += 1
                return
            }
            let (attributes, end) = Self.attributes(html, from: index)
            position = end
            if closing {
                guard let depth = open.lastIndex(where: { $0.name == name }) else { return }
                if open[depth].heading { titleDone = true }
                open.removeSubrange(depth...)
                return
            }
            if name == Array("meta".utf8), let content = attributes["content"] {
                switch attributes["name"] {
                case "pagefind-type": page.types.append(content)
                case "pagefind-machine": page.machine = page.machine ?? content
                default: break
                }
            }
            if Self.raw.contains(name) {
                let close = Array("</".utf8) + name
                position = ByteSearch.find(close, in: html, from: position).map { $0 } ?? html.count
                return
            }
            let selfClosing = end >= 2 && html[end - 1] == UInt8(ascii: ">") && html[end - 2] == UInt8(ascii: "/")
            guard !Self.void.contains(name), !selfClosing else { return }
            let parent = open.last
            let body = (parent?.body ?? false) || attributes["data-pagefind-body"] != nil
            if body { sawBody = true }
            let weight = attributes["data-pagefind-weight"].flatMap { UInt8($0) } ?? parent?.weight ?? 1
            open.append(Element(name: name, body: body, ignored: (parent?.ignored ?? false) || attributes["data-pagefind-ignore"] != nil,
                                weight: max(1, weight), heading: (parent?.heading ?? false) || name == Array("h1".utf8)))
        }

        static func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
        }

        /// The attributes of a tag from `start` to its `>`, and the position after it.
        static func attributes(_ html: [UInt8], from start: Int) -> ([String: String], Int) {
            var attributes: [String: String] = [:], index = start
            func skipSpace() { while index < html.count, html[index] <= 0x20 { index += 1 } }
            while index < html.count {
                skipSpace()
                guard index < html.count, html[index] != UInt8(ascii: ">") else { break }
                if html[index] == UInt8(ascii: "/") { index += 1; continue }
                let nameStart = index
                while index < html.count, html[index] > 0x20, !"=>/".utf8.contains(html[index]) { index += 1 }
                let name = String(decoding: html[nameStart..<index], as: UTF8.self).lowercased()
                skipSpace()
                var value = ""
                if index < html.count, html[index] == UInt8(ascii: "=") {
                    index += 1
                    skipSpace()
                    if index < html.count, html[index] == UInt8(ascii: "\"") || html[index] == UInt8(ascii: "'") {
                        let quote = html[index]
                        let valueStart = index + 1
                        index = html[valueStart...].firstIndex(of: quote) ?? html.count
                        value = decode(Array(html[valueStart..<index]))
                        index = min(html.count, index + 1)
                    } else {
                        let valueStart = index
                        while index < html.count, html[index] > 0x20, html[index] != UInt8(ascii: ">") { index += 1 }
                        value = decode(Array(html[valueStart..<index]))
                    }
                }
                if !name.isEmpty { attributes[name] = attributes[name] ?? value }
            }
            return (attributes, min(html.count, index + 1))
        }

        private static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
                                                       "nbsp": " ", "#39": "'"]

        /// Text with its character references replaced.
        static func decode(_ bytes: [UInt8]) -> String {
            guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
            var output = "", index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "&"),
                      let end = bytes[index..<min(bytes.count, index + 12)].firstIndex(of: UInt8(ascii: ";"))
                else {
                    let next = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                    output += String(decoding: bytes[index..<next], as: UTF8.self)
                    index = next
                    continue
                }
                let reference = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                if let known = named[reference] {
                    output += known
                } else if reference.hasPrefix("#"), let scalar = Self.scalar(reference.dropFirst()) {
                    output.unicodeScalars.append(scalar)
                } else {
                    output += String(decoding: bytes[index...end], as: UTF8.self)
                }
                index = end + 1
            }
            return output
        }

        private static func scalar(_ number: Substring) -> Unicode.Scalar? {
            let value = number.first == "x" || number.first == "X" ? UInt32(number.dropFirst(), radix: 16) : UInt32(number)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
