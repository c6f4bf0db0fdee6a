import Foundation

/// Compiles Mustache text into nodes once per build, following the Mustache specification:
/// standalone lines, set delimiters, partials and their indentation, and inheritance.
/// Hand-written because swift-mustache resolves every name through dynamic casts at render
/// time, which a profile of cold builds showed (Benchmarks/README.md); see TemplateRenderer.
package struct TemplateParser {
    private let bytes: [UInt8]
    private var position = 0
    private var open = Array("{{".utf8)
    private var close = Array("}}".utf8)
    private var frames: [Frame]
    private var references: [TemplateReference] = []

    private struct Frame {
        package enum Kind { case root, section(inverted: Bool), parent, block }
        package let kind: Kind
        package let name: TemplateName
        package let offset: Int
        package var nodes: [TemplateNode] = []
        /// A block: the whitespace before it. A parent: the whitespace before its opening tag,
        /// written only if the parent turns out not to stand alone on its lines.
        package var indent = ""
        /// A parent whose opening tag had only whitespace before it on its line.
        package var blankBefore = false
        /// A block whose opening tag stands alone on its line. Inside a parent, its text's
        /// own indentation is removed, and added back where the block is used; elsewhere, with
        /// no whitespace before the tag, its default text's indentation is what an override's
        /// lines get.
        package var reindents = false
        /// A block written directly inside a parent: an override, not a default.
        package var overrides = false
    }

    package static func compile(_ text: String) throws(TemplateSyntaxError) -> CompiledTemplate {
        var parser = TemplateParser(bytes: Array(text.utf8))
        let nodes = try parser.run()
        return CompiledTemplate(nodes: nodes, references: parser.references)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        frames = [Frame(kind: .root, name: TemplateName(path: [], transform: nil, ofElement: false, written: ""), offset: 0)]
    }

    private mutating func run() throws(TemplateSyntaxError) -> [TemplateNode] {
        while position < bytes.count {
            guard let tagStart = find(open, from: position) else {
                appendText(position, bytes.count)
                break
            }
            try tag(at: tagStart)
        }
        if frames.count > 1, let unclosed = frames.last {
            throw error("the section \(unclosed.name.written) is never closed", at: unclosed.offset)
        }
        return frames[0].nodes
    }

    private mutating func tag(at tagStart: Int) throws(TemplateSyntaxError) {
        let hasSigil = tagStart + open.count < bytes.count && Self.sigils.contains(bytes[tagStart + open.count])
        let sigil = hasSigil ? bytes[tagStart + open.count] : 0, cursor = tagStart + open.count + (hasSigil ? 1 : 0)
        let (content, tagEnd) = try tagContent(from: cursor, sigil: sigil, tagStart: tagStart)
        let lineStart = self.lineStart(before: tagStart)
        let blankBefore = bytes[lineStart..<tagStart].allSatisfy(Self.isBlank)
        let lineEnd = endOfBlankLine(from: tagEnd)
        let standalone = blankBefore && lineEnd != nil, leading = String(decoding: bytes[lineStart..<tagStart], as: UTF8.self)

        // Moves past the tag, and past its whole line when it stands alone there.
        func advance(_ parser: inout TemplateParser, standalone: Bool) {
            parser.appendText(parser.position, standalone ? lineStart : tagStart)
            parser.position = standalone ? lineEnd! : tagEnd
        }

        switch sigil {
        case UInt8(ascii: "!"):
            advance(&self, standalone: standalone)
        case UInt8(ascii: "="):
            advance(&self, standalone: standalone)
            try setDelimiters(content, at: tagStart)
        case UInt8(ascii: "%"):
            throw error("configuration tags ({{% … }}) are not supported", at: tagStart)
        case UInt8(ascii: ">"):
            advance(&self, standalone: standalone)
            try reference(content, at: tagStart)
            append(.partial(content, indent: standalone ? leading : ""))
        case UInt8(ascii: "#"), UInt8(ascii: "^"):
            advance(&self, standalone: standalone)
            frames.append(Frame(kind: .section(inverted: sigil == UInt8(ascii: "^")), name: try name(content, at: tagStart),
                                offset: tagStart))
        case UInt8(ascii: "<"):
            try reference(content, at: tagStart)
            appendText(position, blankBefore ? lineStart : tagStart)
            position = tagEnd
            var frame = Frame(kind: .parent, name: try name(content, at: tagStart), offset: tagStart)
            (frame.blankBefore, frame.indent) = (blankBefore, blankBefore ? leading : "")
            frames.append(frame)
        case UInt8(ascii: "$"):
            var frame = Frame(kind: .block, name: try name(content, at: tagStart), offset: tagStart)
            if case .parent = frames.last!.kind {
                // A block inside a parent overrides the parent's block of that name.
                frame.overrides = true
                frame.reindents = lineEnd != nil
                position = lineEnd ?? tagEnd
            } else {
                advance(&self, standalone: standalone)
                (frame.indent, frame.reindents) = (blankBefore ? leading : "", standalone)
            }
            frames.append(frame)
        case UInt8(ascii: "/"):
            try closeSection(content, at: tagStart, blankBefore: blankBefore, lineStart: lineStart,
                             tagEnd: tagEnd, lineEnd: lineEnd)
        default:
            appendText(position, tagStart)
            position = tagEnd
            let escaped = sigil == 0
            append(.variable(try name(content, at: tagStart), escaped: escaped))
        }
    }

    /// The tag's content, trimmed, and where the tag ends: `}}}` after a triple mustache,
    /// `=}}` after a change of delimiters.
    private func tagContent(from cursor: Int, sigil: UInt8, tagStart: Int) throws(TemplateSyntaxError) -> (String, Int) {
        let terminator = sigil == UInt8(ascii: "{") ? [UInt8(ascii: "}")] + close
            : sigil == UInt8(ascii: "=") ? [UInt8(ascii: "=")] + close : close
        guard let contentEnd = find(terminator, from: cursor) else {
            throw error("a tag is not closed with \(String(decoding: terminator, as: UTF8.self))", at: tagStart)
        }
        return (Self.trimmed(bytes[cursor..<contentEnd]), contentEnd + terminator.count)
    }

    private mutating func closeSection(_ content: String, at tagStart: Int, blankBefore: Bool, lineStart: Int,
                                       tagEnd: Int, lineEnd: Int?) throws(TemplateSyntaxError) {
        guard frames.count > 1, var frame = frames.last, frame.name.written == content else {
            let expected = frames.count > 1 ? " (open: \(frames.last!.name.written))" : ""
            throw error("the closing tag \(content) does not match an open section\(expected)", at: tagStart)
        }
        switch frame.kind {
        case .parent:
            frames.removeLast()
            let standalone = frame.blankBefore && lineEnd != nil
            if !standalone { appendText(frame.indent) }
            position = standalone ? lineEnd! : tagEnd
            var blocks: [String: [TemplateNode]] = [:]
            for case .block(let name, let nodes, _, _) in frame.nodes where blocks[name] == nil {
                blocks[name] = nodes
            }
            append(.parent(frame.name.written, blocks: blocks, indent: standalone ? frame.indent : ""))
        case .block where frame.overrides:
            appendText(position, blankBefore ? lineStart : tagStart)
            position = tagEnd
            frame = frames.removeLast()
            let nodes = frame.reindents ? Self.removingIndentation(frame.nodes) : frame.nodes
            append(.block(frame.name.written, nodes, indent: "", overrideIndent: ""))
        default:
            let standalone = blankBefore && lineEnd != nil
            appendText(position, standalone ? lineStart : tagStart)
            position = standalone ? lineEnd! : tagEnd
            frame = frames.removeLast()
            switch frame.kind {
            case .section(let inverted): append(.section(frame.name, frame.nodes, inverted: inverted))
            default:
                var intrinsic = ""
                if frame.reindents, frame.indent.isEmpty, case .text(let first) = frame.nodes.first {
                    intrinsic = String(first.prefix { $0 == " " || $0 == "\t" })
                }
                append(.block(frame.name.written, frame.nodes, indent: frame.indent, overrideIndent: intrinsic))
            }
        }
    }

    private mutating func setDelimiters(_ content: String, at offset: Int) throws(TemplateSyntaxError) {
        let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
            throw error("a set-delimiter tag needs two delimiters, such as {{=<% %>=}}", at: offset)
        }
        open = Array(parts[0].utf8)
        close = Array(parts[1].utf8)
    }

    private mutating func reference(_ name: String, at offset: Int) throws(TemplateSyntaxError) {
        guard !name.isEmpty else { throw error("a partial tag names no template", at: offset) }
        let (line, column) = location(of: offset)
        references.append(TemplateReference(name: name, line: line, column: column))
    }

    private func name(_ content: String, at offset: Int) throws(TemplateSyntaxError) -> TemplateName {
        guard !content.isEmpty else { throw error("a tag has no name", at: offset) }
        if content == "." { return TemplateName(path: [], transform: nil, ofElement: false, written: content) }
        var path = content
        var transform: TemplateTransform?
        var ofElement = false
        if content.hasSuffix(")"), let paren = content.firstIndex(of: "(") {
            let function = String(content[..<paren])
            guard let known = TemplateTransform(rawValue: function) else {
                throw error("unknown function \(function)()", at: offset)
            }
            transform = known
            path = String(content[content.index(after: paren)..<content.index(before: content.endIndex)])
                .trimmingCharacters(in: .whitespaces)
            ofElement = path.isEmpty
            if ofElement, !TemplateTransform.ofElement.contains(known) {
                throw error("\(function)() needs a name to apply to, as in \(function)(tags)", at: offset)
            }
            if path == "." || ofElement {
                return TemplateName(path: [], transform: transform, ofElement: ofElement, written: content)
            }
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !components.contains(where: \.isEmpty) else { throw error("the name \(content) has an empty part", at: offset) }
        return TemplateName(path: components, transform: transform, ofElement: ofElement, written: content)
    }

    // MARK: Text

    private mutating func appendText(_ start: Int, _ end: Int) {
        guard start < end else { return }
        appendText(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    private mutating func appendText(_ text: String) {
        guard !text.isEmpty else { return }
        if case .parent = frames.last!.kind { return }  // Text inside {{<parent}} is ignored.
        if case .text(let previous) = frames[frames.count - 1].nodes.last {
            frames[frames.count - 1].nodes[frames[frames.count - 1].nodes.count - 1] = .text(previous + text)
        } else {
            frames[frames.count - 1].nodes.append(.text(text))
        }
    }

    private mutating func append(_ node: TemplateNode) {
        frames[frames.count - 1].nodes.append(node)
    }

    /// A block's text without the indentation of its first line, taken from every line.
    private static func removingIndentation(_ nodes: [TemplateNode]) -> [TemplateNode] {
        guard case .text(let first) = nodes.first else { return nodes }
        let indentation = String(first.prefix { $0 == " " || $0 == "\t" })
        guard !indentation.isEmpty else { return nodes }
        var atLineStart = true
        return nodes.map { node in
            guard case .text(let text) = node else {
                atLineStart = false
                return node
            }
            var result = ""
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.offset > 0 { result += "\n"; atLineStart = true }
                if atLineStart, line.element.hasPrefix(indentation) {
                    result += line.element.dropFirst(indentation.count)
                } else {
                    result += line.element
                }
                if !line.element.isEmpty { atLineStart = false }
            }
            return .text(result)
        }
    }

    // MARK: Scanning

    private static let sigils: Set<UInt8> = Set("#^/!><$=&{%".utf8)

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func trimmed(_ slice: ArraySlice<UInt8>) -> String {
        let isSpace: (UInt8) -> Bool = { isBlank($0) || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard let first = slice.firstIndex(where: { !isSpace($0) }), let last = slice.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: slice[first...last], as: UTF8.self)
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private func lineStart(before offset: Int) -> Int {
        var index = offset
        while index > 0, bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        return index
    }

    /// Where the next line starts, when only blanks follow `offset` on its line.
    private func endOfBlankLine(from offset: Int) -> Int? {
        var index = offset
        while index < bytes.count, Self.isBlank(bytes[index]) { index += 1 }
        if index == bytes.count { return index }
        if bytes[index] == UInt8(ascii: "\n") { return index + 1 }
        if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return index + 2 }
        return nil
    }

    private func location(of offset: Int) -> (line: Int, column: Int) {
        let start = lineStart(before: offset)
        let line = bytes[..<start].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        // Columns count characters, not bytes: continuation bytes of UTF-8 are skipped.
        let column = bytes[start..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return (line, column)
    }

    private func error(_ message: String, at offset: Int) -> TemplateSyntaxError {
        let (line, column) = location(of: offset)
        return TemplateSyntaxError(message: message, line: line, column: column)
    }
}
