import TeardownBase

/// The raw HTML of Markdown text that is kept where the site does not trust its authors with
/// all of it (`unsafe_html: false`, and comments always): the elements GitHub keeps for
/// formatting (`<kbd>`, `<details>`, `<sub>`, `<img width>` and so on) with the attributes that
/// cannot run script, and nothing else. Hand-written: no HTML parser is among the dependencies.
///
/// It reads the HTML leniently and writes it strictly: an allowed tag is written again from its
/// name and its allowed attributes' values, escaped; every other `<` is written as text, so the
/// browser sees no markup but these tags, whatever the input's quirks. The elements are balanced
/// (`Balances`): a closing tag with nothing open is dropped, and what is still open is closed
/// where its part of the text ends (a line of text's tags at the end of the paragraph, link or
/// emphasis they are in; a block's at the end of the text), so no text closes an element of the
/// page around it, and the page stays valid HTML.
struct HTMLAllowlist {
    /// Each element kept, with the attributes kept on it.
    static let elements: [String: Set<String>] = [
        "kbd": [], "sub": [], "sup": [], "br": [], "wbr": [], "details": ["open"], "summary": [],
        "img": ["src", "alt", "width", "height", "title"], "abbr": ["title"], "mark": [], "ins": [], "del": [],
        "s": [], "q": [], "var": [], "samp": [], "small": [], "b": [], "i": [], "u": [], "em": [], "strong": [],
        "code": [], "dl": [], "dt": [], "dd": [], "hr": [], "a": ["href", "title"], "span": [], "div": [],
        "picture": [], "figure": [], "figcaption": [], "cite": [], "dfn": [], "ruby": [], "rt": [], "rp": [],
    ]
    /// Elements without content or closing tag.
    static let void: Set<String> = ["br", "wbr", "img", "hr"]
    /// Elements that make blocks: kept where raw HTML makes a block, left out of a line of text
    /// (a paragraph holds none); a `<dt>` or `<dd>` only inside a `<dl>`.
    static let blocks: Set<String> = ["details", "summary", "dl", "dt", "dd", "hr", "div", "figure", "figcaption"]
    /// Elements whose content is not text to show either: left out whole.
    static let withContent: Set<String> = ["script", "style", "iframe", "textarea", "title", "xmp", "noembed",
                                           "noframes", "noscript", "plaintext", "template", "object", "embed",
                                           "svg", "math", "select", "frameset", "head"]

    /// What was left out, for a warning, by line in the piece of HTML (then in the text).
    typealias Dropped = MarkdownDocument.DroppedHTML

    /// The elements open so far in one part of a text, across its pieces of HTML.
    struct Balance {
        var open: [String] = []
        /// A line of text's (inline HTML): no block elements.
        var inline = false
        /// Inside a Markdown link: an image is not made a link.
        var inLink = false
        /// Inside an element left out with its content, until its closing tag.
        var skipping: String?
        var dropped: [Dropped] = []
        /// A visitor's text: an image is written as a link to its address, or as its alt text
        /// (`MarkdownRenderer.imagesAsLinks` says why).
        var imagesAsLinks = false

        /// The closing tags of what is still open.
        mutating func closeAll() -> String {
            defer { open.removeAll() }
            return open.reversed().map { "</\($0)>" }.joined()
        }
    }

    /// The balances of a text: one for its blocks of raw HTML, so that a `<details>` may hold
    /// Markdown paragraphs, and one for each node (`Parent`: a paragraph, a link, an emphasis)
    /// whose lines of text hold raw HTML, closed at that node's end.
    struct Balances<Parent: Hashable> {
        private var blocks = Balance()
        private var inline: [Parent: Balance] = [:]
        private var parents: [Parent] = []
        private let imagesAsLinks: Bool
        /// What was left out, by line in the text.
        private(set) var dropped: [Dropped] = []

        init(imagesAsLinks: Bool) {
            self.imagesAsLinks = imagesAsLinks
            blocks.imagesAsLinks = imagesAsLinks
        }

        /// A piece of raw HTML starting at `line`: a block (`parent` nil) or in a line of text.
        mutating func sanitize(_ html: String, line: Int, parent: Parent?, inLink: Bool) -> String {
            var balance = blocks
            if let parent {
                if inline[parent] == nil { parents.append(parent) }
                balance = inline[parent] ?? Balance(inline: true, inLink: inLink, imagesAsLinks: imagesAsLinks)
            }
            let kept = HTMLAllowlist.sanitize(html, balance: &balance)
            dropped += balance.dropped.map { Dropped(what: $0.what, line: line + $0.line, isImage: $0.isImage, isMisplaced: $0.isMisplaced) }
            balance.dropped.removeAll()
            if let parent { inline[parent] = balance } else { blocks = balance }
            return kept
        }

        /// The closing tags of what each node's lines left open, to end it; then the blocks'.
        mutating func closeAll() -> (inline: [(Parent, String)], blocks: String) {
            let closing = parents.map { parent in (parent, inline[parent]?.closeAll() ?? "") }
            inline.removeAll()
            parents.removeAll()
            return (closing, blocks.closeAll())
        }
    }

    /// `html`, one piece of raw HTML of the text, as it is kept.
    static func sanitize(_ html: String, balance: inout Balance) -> String {
        var output = ""
        var reader = HTMLTagReader(Array(html.utf8))
        while let token = reader.next() {
            switch token {
            case .text(let text):
                if balance.skipping == nil { output += escapeText(text) }
            case .comment:
                break
            case .tag(let tag, let line):
                output += kept(tag, line: line, balance: &balance)
            }
        }
        return output
    }

    private static func kept(_ tag: HTMLTagReader.Tag, line: Int, balance: inout Balance) -> String {
        if let skipping = balance.skipping {
            if tag.closing, tag.name == skipping { balance.skipping = nil }
            return ""
        }
        guard let allowed = elements[tag.name] else {
            if !tag.closing {
                balance.dropped.append(Dropped(what: "<\(tag.name)>", line: line))
                if withContent.contains(tag.name), !tag.selfClosing { balance.skipping = tag.name }
            }
            return ""
        }
        if !tag.closing, balance.inline && blocks.contains(tag.name)
            || ["dt", "dd"].contains(tag.name) && balance.open.last != "dl" {
            balance.dropped.append(Dropped(what: "<\(tag.name)> " + (balance.inline ? "inside a line of text" : "outside a <dl>"), line: line,
                                           isMisplaced: true))
            return ""
        }
        if tag.closing {
            guard !void.contains(tag.name), let at = balance.open.lastIndex(of: tag.name) else { return "" }
            let closed = balance.open[at...].reversed().map { "</\($0)>" }.joined()
            balance.open.removeSubrange(at...)
            return closed
        }
        var written = "<" + tag.name
        var wrote: Set<String> = []
        // A link's address goes first whatever the order written: the renderer marks a
        // visitor's links by `<a href=` (`rel="nofollow ugc"`).
        let attributes = tag.name == "a" ? tag.attributes.filter { $0.name == "href" } + tag.attributes.filter { $0.name != "href" }
            : tag.attributes
        for (name, value) in attributes {
            guard allowed.contains(name), wrote.insert(name).inserted else {
                balance.dropped.append(Dropped(what: "\(name)= on <\(tag.name)>", line: line))
                continue
            }
            if name == "href" || name == "src" {
                guard let url = safeURL(value) else {
                    balance.dropped.append(Dropped(what: "\(name)=\"\(value.prefix(40))\" on <\(tag.name)>", line: line))
                    continue
                }
                written += " \(name)=\"\(HTMLEscaping.escape(url))\""
            } else if (name == "width" || name == "height"), value.isEmpty || !value.allSatisfy({ $0.isASCII && $0.isNumber }) {
                balance.dropped.append(Dropped(what: "\(name)=\"\(value.prefix(40))\" on <\(tag.name)>", line: line))
            } else {
                written += value.isEmpty && name == "open" ? " open" : " \(name)=\"\(HTMLEscaping.escape(value))\""
            }
        }
        if tag.name == "img", !written.contains(" src=\"") { return "" }
        // An image says what it shows, if only that it is a picture without words.
        if tag.name == "img", !wrote.contains("alt") { written += " alt=\"\"" }
        if tag.name == "img", balance.imagesAsLinks { return imageAsLink(tag, line: line, balance: &balance) }
        if !void.contains(tag.name) { balance.open.append(tag.name) }
        return written + ">"
    }

    /// A visitor's Markdown images, in the HTML cmark-gfm wrote (`<img src="…" alt="…" />`,
    /// its attributes escaped; a raw `<img>` became a link already): each is a link to an
    /// address elsewhere, named by its alt text, or its alt text alone. A visitor's image
    /// loads nothing: a reader's address would go to whoever runs that server, and the
    /// picture would pass no photo moderation; a comment's pictures are the photos sent with it.
    static func imagesAsLinks(_ html: [UInt8]) -> [UInt8] {
        let opening = Array("<img src=\"".utf8), alt = Array("\" alt=\"".utf8), close = Array(" />".utf8)
        var out: [UInt8] = [], from = 0
        while let start = ByteSearch.find(opening, in: html, from: from),
              let sourceEnd = ByteSearch.find(alt, in: html, from: start + opening.count),
              let altEnd = html[(sourceEnd + alt.count)...].firstIndex(of: UInt8(ascii: "\"")),
              let end = ByteSearch.find(close, in: html, from: altEnd) {
            out += html[from..<start]
            let source = html[(start + opening.count)..<sourceEnd], text = html[(sourceEnd + alt.count)..<altEnd]
            // The text was escaped for an attribute, which is as good for an element's content.
            out += isElsewhere(String(decoding: source, as: UTF8.self))
                ? Array("<a href=\"".utf8) + source + Array("\">".utf8) + (text.isEmpty ? source : text) + Array("</a>".utf8)
                : Array(text)
            from = end + close.count
        }
        return from == 0 ? html : out + html[from...]
    }

    /// A visitor's `<img>`: a link to an address elsewhere, named by its alt text, or the alt
    /// text alone (inside a link, or for a path, which is left out with a note).
    private static func imageAsLink(_ tag: HTMLTagReader.Tag, line: Int, balance: inout Balance) -> String {
        let source = tag.attributes.first { $0.name == "src" }.flatMap { safeURL($0.value) } ?? ""
        let alt = tag.attributes.first { $0.name == "alt" }?.value ?? ""
        guard isElsewhere(source) else {
            balance.dropped.append(Dropped(what: String(source.prefix(60)), line: line, isImage: true))
            return escapeText(alt)
        }
        guard !balance.inLink, !balance.open.contains("a") else { return escapeText(alt.isEmpty ? source : alt) }
        return "<a href=\"\(HTMLEscaping.escape(source))\">\(escapeText(alt.isEmpty ? source : alt))</a>"
    }

    /// Whether an address names another site (a scheme, or `//host`) rather than a path of this one.
    static func isElsewhere(_ address: String) -> Bool {
        let text = address.trimmingWhitespace
        if text.hasPrefix("//") { return true }
        guard let colon = text.firstIndex(of: ":") else { return false }
        return !text[..<colon].contains { "/?#".contains($0) }
    }

    /// A link or image address that cannot run script: one with no scheme (a path, `#anchor`,
    /// `?query`), or http, https or mailto. Entities are read first, and the whitespace and
    /// controls browsers strip from an address, so `java&#115;cript:` is what it is.
    static func safeURL(_ value: String) -> String? {
        let decoded = decodeEntities(value).trimmingWhitespace
        let bare = decoded.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }
        let text = String(String.UnicodeScalarView(bare)).lowercased()
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains(where: { "/?#".contains($0) }) {
            guard ["http", "https", "mailto"].contains(String(text[..<colon])) else { return nil }
        }
        return decoded
    }

    /// Text between tags: `<` and `>` escaped; an `&` kept where it starts an entity (`&copy;`,
    /// `&#169;`), escaped elsewhere.
    static func escapeText(_ text: String) -> String {
        var out = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&":
                let rest = characters[(index + 1)...].prefix(33)
                let entity = rest.firstIndex(of: ";").map { rest[rest.startIndex..<$0] }
                let named = entity.map { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "#") } } ?? false
                out += named ? "&" : "&amp;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The entities an address may hide a scheme behind: numeric ones and the few named ones a
    /// scheme's letters or its colon can be written with.
    static func decodeEntities(_ value: String) -> String {
        guard value.contains("&") else { return value }
        var out = "", index = value.startIndex
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "colon": ":", "tab": "\t", "newline": "\n"]
        while index < value.endIndex {
            guard value[index] == "&", let end = value[index...].prefix(34).firstIndex(of: ";") else {
                out.append(value[index])
                index = value.index(after: index)
                continue
            }
            let body = value[value.index(after: index)..<end]
            var scalar: Unicode.Scalar?
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                scalar = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if body.hasPrefix("#") {
                scalar = UInt32(body.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else if let character = named[body.lowercased()] {
                out += character
                index = value.index(after: end)
                continue
            }
            if let scalar {
                out.unicodeScalars.append(scalar)
                index = value.index(after: end)
            } else {
                out.append(value[index])
                index = value.index(after: index)
            }
        }
        return out
    }
}

private extension String {
    var trimmingWhitespace: String {
        String(unicodeScalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed()
            .map(Character.init))
    }
}

extension MarkdownSource {
    /// A warning, at its line, for each piece of raw HTML rendering leaves out (`HTMLAllowlist`).
    /// Only a text with a `<` before a letter (what an opening tag starts with: nothing else is
    /// warned of) is rendered to find them, once, as it is loaded.
    func warnLeftOutHTML(diagnostics: inout [Diagnostic]) {
        let bytes = text.utf8
        // A tag (`<` and a letter) or an image (`![`): the only text that can be left out.
        guard zip(bytes, bytes.dropFirst()).contains(where: { pair in
            pair.0 == UInt8(ascii: "<") && (pair.1 | 0x20) >= 0x61 && (pair.1 | 0x20) <= 0x7A
                || pair.0 == UInt8(ascii: "!") && pair.1 == UInt8(ascii: "[")
        })
        else { return }
        let document = MarkdownRenderer().document(text, trust: .community)
        for dropped in document.droppedHTML {
            diagnostics.append(.warning(dropped.problem, at: location(line: dropped.line, column: 1)))
        }
        for image in document.links where image.isImage && !HTMLAllowlist.isElsewhere(image.destination) {
            diagnostics.append(.warning(.communityImageLeftOut(String(image.destination.prefix(60))),
                                        at: location(line: image.line, column: image.column)))
        }
    }
}
