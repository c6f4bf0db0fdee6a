/// Builds the XML the site publishes (Atom feeds, sitemaps) as text. Community content goes
/// into it, so every value is escaped, and characters XML 1.0 forbids (control characters,
/// U+FFFE, U+FFFF) are dropped: one stray byte in a comment must not make a feed unreadable.
struct XMLWriter {
    private(set) var text = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
    private var open: [String] = []

    /// `<name a="v">` with escaped attribute values, in the order given.
    mutating func start(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        text += String(repeating: "  ", count: open.count) + "<" + name + Self.attributes(attributes) + ">\n"
        open.append(name)
    }

    mutating func end() {
        let name = open.removeLast()
        text += String(repeating: "  ", count: open.count) + "</" + name + ">\n"
    }

    /// `<name>text</name>`, the text escaped.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text value: String) {
        text += String(repeating: "  ", count: open.count) + "<" + name + Self.attributes(attributes) + ">"
            + Self.escape(value) + "</" + name + ">\n"
    }

    /// `<name a="v"/>`.
    mutating func empty(_ name: String, _ attributes: KeyValuePairs<String, String>) {
        text += String(repeating: "  ", count: open.count) + "<" + name + Self.attributes(attributes) + "/>\n"
    }

    private static func attributes(_ attributes: KeyValuePairs<String, String>) -> String {
        attributes.map { " \($0.key)=\"\(escape($0.value))\"" }.joined()
    }

    static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
