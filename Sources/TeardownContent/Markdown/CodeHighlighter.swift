import TeardownBase

/// Syntax highlighting at build time: a fenced block whose language it knows gets `<span>`s with
/// `hl-` classes, which the theme's stylesheet colours. Pages need no script for it.
///
/// Hand-written: no Swift highlighter is among the packages the project can depend on, and the
/// theme loads no third-party script. It knows the languages that manuals and repair notes
/// show (shell sessions, YAML, JSON, Markdown, C-family code); another language is left plain.
/// It scans bytes, a line at a time, and never looks back more than a line, so its cost grows
/// with the code's length and no input can make it slow.
package enum CodeHighlighter {
    package enum Language {
        case shell, yaml, json, markdown, cFamily(keywords: Set<String>)

        package init?(name: String) {
            switch name.lowercased() {
            case "sh", "shell", "bash", "console", "zsh", "shell-session": self = .shell
            case "yaml", "yml": self = .yaml
            case "json", "jsonc", "geojson": self = .json
            case "markdown", "md": self = .markdown
            case "c", "h", "cpp", "c++", "cc", "hpp", "arduino", "ino": self = .cFamily(keywords: Keywords.c)
            case "swift": self = .cFamily(keywords: Keywords.swift)
            case "js", "javascript", "ts", "typescript": self = .cFamily(keywords: Keywords.javaScript)
            default: return nil
            }
        }
    }

    package enum Kind: String {
        case comment, string, number, keyword, key, command, option, variable, heading
    }

    private static let opening = Array("<pre><code class=\"language-".utf8)
    private static let closing = Array("</code></pre>".utf8)

    /// cmark-gfm's HTML with every code block of a known language highlighted. A block whose
    /// escaped text holds a tag (raw HTML a designer wrote, on a site that allows it) is left
    /// as it is. It works on the HTML's bytes: Foundation's substring search, which a `String`
    /// would go through, showed in cold builds' profiles.
    package static func highlight(html bytes: [UInt8]) -> [UInt8] {
        guard var start = ByteSearch.find(opening, in: bytes, from: 0) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        var index = 0
        while true {
            let nameStart = start + opening.count
            guard let nameEnd = bytes[nameStart...].firstIndex(of: UInt8(ascii: "\"")),
                  bytes.count > nameEnd + 1, bytes[nameEnd + 1] == UInt8(ascii: ">"),
                  let end = ByteSearch.find(closing, in: bytes, from: nameEnd + 2) else { break }
            let body = bytes[(nameEnd + 2)..<end]
            output += bytes[index..<(nameEnd + 2)]
            if let language = Language(name: String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)),
               !body.contains(UInt8(ascii: "<")) {
                output += highlight(unescaped(body), as: language)
            } else {
                output += body
            }
            index = end
            guard let next = ByteSearch.find(opening, in: bytes, from: index) else { break }
            start = next
        }
        guard index > 0 else { return bytes }
        output += bytes[index...]
        return output
    }

    /// `code` (plain text) as escaped HTML with its tokens in spans.
    package static func highlight(_ code: [UInt8], as language: Language) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(code.count * 2)
        var state = LineScanner.State()
        var lineStart = 0
        while lineStart < code.count {
            let lineEnd = code[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? code.count
            let line = code[lineStart..<lineEnd]
            var scanner = LineScanner(line: line, state: state)
            for (range, kind) in scanner.tokens(language) {
                let text = line[range]
                if let kind {
                    output += Array("<span class=\"hl-\(kind.rawValue)\">".utf8)
                    HTMLEscaping.escape(text, into: &output)
                    output += Array("</span>".utf8)
                } else {
                    HTMLEscaping.escape(text, into: &output)
                }
            }
            state = scanner.state
            if lineEnd < code.count { output.append(UInt8(ascii: "\n")) }
            lineStart = lineEnd + 1
        }
        return output
    }

    /// The text highlighted HTML shows: tags dropped, the escapes undone. The fuzzer and the
    /// tests check with it that highlighting keeps every byte of the code.
    package static func text(of html: [UInt8]) -> [UInt8] {
        let entities: [(entity: [UInt8], byte: UInt8)] = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"),
                                                          ("&amp;", "&")].map { (Array($0.0.utf8), UInt8(ascii: $0.1)) }
        var text: [UInt8] = []
        var index = 0
        while index < html.count {
            if html[index] == UInt8(ascii: "<") {
                index = (html[index...].firstIndex(of: UInt8(ascii: ">")) ?? html.count - 1) + 1
            } else if html[index] == UInt8(ascii: "&"), let match = entities.first(where: { html[index...].starts(with: $0.entity) }) {
                text.append(match.byte)
                index += match.entity.count
            } else {
                text.append(html[index])
                index += 1
            }
        }
        return text
    }

    /// cmark-gfm escapes `&`, `<`, `>` and `"` in code; anything else stays as written.
    private static func unescaped(_ text: ArraySlice<UInt8>) -> [UInt8] {
        guard text.contains(UInt8(ascii: "&")) else { return Array(text) }
        let entities: [(String, UInt8)] = [("&amp;", UInt8(ascii: "&")), ("&lt;", UInt8(ascii: "<")),
                                           ("&gt;", UInt8(ascii: ">")), ("&quot;", UInt8(ascii: "\""))]
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = text.startIndex
        outer: while index < text.endIndex {
            if text[index] == UInt8(ascii: "&") {
                for (entity, byte) in entities where text[index...].starts(with: entity.utf8) {
                    result.append(byte)
                    index += entity.utf8.count
                    continue outer
                }
            }
            result.append(text[index])
            index += 1
        }
        return result
    }

    package enum Keywords {
        package static let c: Set<String> = [
            "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
            "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "return", "short",
            "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile",
            "while", "bool", "true", "false", "NULL", "class", "namespace", "template", "nullptr", "uint8_t",
            "uint16_t", "uint32_t", "int8_t", "int16_t", "int32_t", "size_t", "#include", "#define", "#if",
            "#ifdef", "#ifndef", "#endif", "#else", "#pragma",
        ]
        package static let swift: Set<String> = [
            "let", "var", "func", "struct", "class", "enum", "protocol", "extension", "if", "else", "guard",
            "for", "in", "while", "repeat", "switch", "case", "default", "return", "throw", "throws", "try",
            "catch", "do", "import", "public", "private", "internal", "static", "self", "Self", "nil", "true",
            "false", "async", "await", "init", "where", "some", "any", "break", "continue",
        ]
        package static let javaScript: Set<String> = [
            "const", "let", "var", "function", "return", "if", "else", "for", "while", "do", "switch", "case",
            "default", "break", "continue", "new", "this", "class", "extends", "import", "export", "from",
            "async", "await", "try", "catch", "finally", "throw", "typeof", "instanceof", "null", "undefined",
            "true", "false", "of", "in",
        ]
        package static let shell: Set<String> = [
            "if", "then", "else", "elif", "fi", "for", "in", "do", "done", "while", "until", "case", "esac",
            "function", "export", "local", "return", "sudo",
        ]
        package static let literals: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "~"]
    }
}
