/// HTML escaping for templates and generated markup, byte by byte: text without special
/// characters is returned untouched, and the five special characters are written as entities.
package enum HTMLEscaping {
    package static func escape(_ text: String) -> String {
        var text = text
        let escaped: String? = text.withUTF8 { bytes in
            guard bytes.contains(where: Self.isSpecial) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            escape(bytes, into: &output)
            return String(decoding: output, as: UTF8.self)
        }
        return escaped ?? text
    }

    /// UTF-8 text appended to `output` with the five special characters as entities.
    package static func escape(_ bytes: some Sequence<UInt8>, into output: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "<"): output += Array("&lt;".utf8)
            case UInt8(ascii: ">"): output += Array("&gt;".utf8)
            case UInt8(ascii: "&"): output += Array("&amp;".utf8)
            case UInt8(ascii: "\""): output += Array("&quot;".utf8)
            case UInt8(ascii: "'"): output += Array("&#39;".utf8)
            default: output.append(byte)
            }
        }
    }

    /// Text for an attribute value or element content outside templates.
    package static func attribute(_ text: String) -> String { escape(text) }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}

/// HTML escaping for pages written outside a theme, such as intake's replies.
public enum HTMLText {
    public static func escape(_ text: String) -> String { HTMLEscaping.escape(text) }
}
