/// Reads raw HTML as a run of text, comments and tags, for `HTMLAllowlist`, as browsers
/// tokenize it where it matters here: a tag is `<` and a letter (or `</` and a letter), its
/// name, attributes with quoted, unquoted or no values, up to the `>` outside quotes. Anything
/// else that starts with `<` is text (which the allowlist escapes). Hand-written: no HTML parser
/// is among the dependencies.
struct HTMLTagReader {
    struct Tag {
        let name: String
        let closing: Bool
        let selfClosing: Bool
        /// In order, names in lower case; a repeated name is kept, and the allowlist takes the first.
        let attributes: [(name: String, value: String)]
    }

    enum Token {
        case text(String)
        case comment
        /// With its line in the HTML, from 0.
        case tag(Tag, line: Int)
    }

    private let bytes: [UInt8]
    private var at = 0
    private var line = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> Token? {
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "<") {
            if let comment = comment() { return comment }
            let start = at, startLine = line
            if let tag = tag() { return .tag(tag, line: startLine) }
            at = start
            line = startLine
            return .text(text(from: start, skippingFirst: true))
        }
        return .text(text(from: at, skippingFirst: false))
    }

    /// Text up to the next `<`.
    private mutating func text(from start: Int, skippingFirst: Bool) -> String {
        at = start + (skippingFirst ? 1 : 0)
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") { advance() }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    /// `<!-- … -->`, `<!…>` and `<?…>`, left out whole.
    private mutating func comment() -> Token? {
        guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "!") || bytes[at + 1] == UInt8(ascii: "?") else { return nil }
        let isComment = bytes[at...].starts(with: Array("<!--".utf8))
        at += isComment ? 4 : 2
        while at < bytes.count {
            if isComment ? bytes[at...].starts(with: Array("-->".utf8)) : bytes[at] == UInt8(ascii: ">") {
                at += isComment ? 3 : 1
                return .comment
            }
            advance()
        }
        return .comment
    }

    private mutating func tag() -> Tag? {
        at += 1
        let closing = at < bytes.count && bytes[at] == UInt8(ascii: "/")
        if closing { at += 1 }
        guard at < bytes.count, isLetter(bytes[at]) else { return nil }
        let nameStart = at
        while at < bytes.count, !isSpace(bytes[at]), bytes[at] != UInt8(ascii: ">"), bytes[at] != UInt8(ascii: "/") { advance() }
        let name = String(decoding: bytes[nameStart..<at], as: UTF8.self).lowercased()
        var attributes: [(name: String, value: String)] = []
        var selfClosing = false
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: ">") {
                at += 1
                return Tag(name: name, closing: closing, selfClosing: selfClosing, attributes: attributes)
            }
            if isSpace(byte) || byte == UInt8(ascii: "/") {
                selfClosing = byte == UInt8(ascii: "/")
                advance()
                continue
            }
            selfClosing = false
            let attributeStart = at
            while at < bytes.count, !isSpace(bytes[at]), ![UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[at]) || at == attributeStart {
                advance()
            }
            let attribute = String(decoding: bytes[attributeStart..<at], as: UTF8.self).lowercased()
            while at < bytes.count, isSpace(bytes[at]) { advance() }
            var value = ""
            if at < bytes.count, bytes[at] == UInt8(ascii: "=") {
                at += 1
                while at < bytes.count, isSpace(bytes[at]) { advance() }
                guard let read = attributeValue() else { return nil }
                value = read
            }
            attributes.append((attribute, value))
        }
        return nil
    }

    private mutating func attributeValue() -> String? {
        guard at < bytes.count else { return nil }
        let quote = bytes[at]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            at += 1
            let start = at
            while at < bytes.count, bytes[at] != quote { advance() }
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }
        let start = at
        while at < bytes.count, !isSpace(bytes[at]), bytes[at] != UInt8(ascii: ">") { advance() }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    private mutating func advance() {
        if bytes[at] == UInt8(ascii: "\n") { line += 1 }
        at += 1
    }

    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
}
