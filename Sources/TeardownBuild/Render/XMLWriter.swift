/// Builds the XML the site publishes (Atom feeds, sitemaps) as text. Community content goes
/// into it, so every value is escaped, and characters XML 1.0 forbids (control characters,
/// U+FFFE, U+FFFF) are dropped: one stray byte in a comment must not make a feed unreadable.
package struct XMLWriter {
    package private(set) var text = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
    private var open: [String] = []
    /// How deep the fragment being written lies in its document.
    private var base = 0

    package init() {}

    /// A fragment without the XML declaration, `depth` elements deep: an entry kept apart
    /// from its feed (`FeedEntries`).
    package init(fragmentAt depth: Int) {
        text = ""
        base = depth
    }

    /// How many elements are open around what is written next.
    package var depth: Int { base + open.count }

    /// A fragment written at `depth`, as it is.
    package mutating func append(_ fragment: String) { text += fragment }

    /// `<name a="v">` with escaped attribute values, in the order given.
    package mutating func start(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        text += String(repeating: "  ", count: depth) + "<" + name + Self.attributes(attributes) + ">\n"
        open.append(name)
    }

    package mutating func end() {
        let name = open.removeLast()
        text += String(repeating: "  ", count: depth) + "</" + name + ">\n"
    }

    /// `<name>text</name>`, the text escaped.
    package mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text value: String) {
        text += String(repeating: "  ", count: depth) + "<" + name + Self.attributes(attributes) + ">"
            + Self.escape(value) + "</" + name + ">\n"
    }

    /// `<name a="v"/>`.
    package mutating func empty(_ name: String, _ attributes: KeyValuePairs<String, String>) {
        text += String(repeating: "  ", count: depth) + "<" + name + Self.attributes(attributes) + "/>\n"
    }

    private static func attributes(_ attributes: KeyValuePairs<String, String>) -> String {
        attributes.map { " \($0.key)=\"\(escape($0.value))\"" }.joined()
    }

    /// Works on UTF-8 bytes: a feed carries fifty comments' HTML, too much to escape scalar by
    /// scalar. Text with nothing to change is returned as is.
    package static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard let first = bytes.firstIndex(where: needsWork) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + bytes.count / 8)
            output += bytes[..<first]
            var index = first
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "&"): output += Array("&amp;".utf8)
                case UInt8(ascii: "<"): output += Array("&lt;".utf8)
                case UInt8(ascii: ">"): output += Array("&gt;".utf8)
                case UInt8(ascii: "\""): output += Array("&quot;".utf8)
                case UInt8(ascii: "'"): output += Array("&apos;".utf8)
                case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): output.append(byte)
                case ..<0x20: break
                // U+FFFE and U+FFFF, which XML 1.0 forbids, are EF BF BE and EF BF BF.
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    index += 2
                default: output.append(byte)
                }
                index += 1
            }
            return String(decoding: output, as: UTF8.self)
        } ?? text
    }

    private static func needsWork(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0xEF: true
        case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): false
        default: byte < 0x20
        }
    }
}
