/// Splits one line of code into tokens for `CodeHighlighter`. What a line leaves open (a C
/// comment, a Markdown file's front matter) is carried to the next in `state`.
package struct LineScanner {
    package struct State {
        package var inBlockComment = false
        /// Markdown: the line is the file's first; a `---` there opens YAML front matter.
        package var firstLine = true
        package var inFrontMatter = false
    }

    package typealias Token = (range: Range<Int>, kind: CodeHighlighter.Kind?)

    package let line: ArraySlice<UInt8>
    package var state: State
    private var tokens: [Token] = []
    private var index: Int
    private var plainStart: Int

    package init(line: ArraySlice<UInt8>, state: State) {
        self.line = line
        self.state = state
        index = line.startIndex
        plainStart = line.startIndex
    }

    package mutating func tokens(_ language: CodeHighlighter.Language) -> [Token] {
        switch language {
        case .shell: shell()
        case .yaml: yaml()
        case .json: json()
        case .markdown: markdown()
        case .cFamily(let keywords): cFamily(keywords)
        }
        flushPlain(to: line.endIndex)
        return tokens
    }

    // MARK: Languages

    private mutating func shell() {
        var expectsCommand = true
        skipSpaces()
        // A prompt is part of the session's picture, not of the command.
        if line[index...].starts(with: "$ ".utf8) { index += 2 }
        while index < line.endIndex {
            let byte = line[index]
            if isSpace(byte) { index += 1; continue }
            if byte == UInt8(ascii: "#"), index == line.startIndex || isSpace(line[index - 1]) {
                emit(index..<line.endIndex, .comment)
                return
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quoted(byte); expectsCommand = false; continue }
            if byte == UInt8(ascii: "$") { variable(); continue }
            if byte == UInt8(ascii: "|") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "&")
                || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "`") {
                index += 1
                expectsCommand = true
                continue
            }
            let word = max(index + 1, wordEnd(from: index) { !isSpace($0) && !"|;&()`\"'$".utf8.contains($0) })
            let text = String(decoding: line[index..<word], as: UTF8.self)
            if CodeHighlighter.Keywords.shell.contains(text) {
                emit(index..<word, .keyword)
                expectsCommand = true
            } else if expectsCommand, !text.contains("=") {
                emit(index..<word, .command)
                expectsCommand = false
            } else if byte == UInt8(ascii: "-"), word - index > 1 {
                emit(index..<word, .option)
            }
            index = word
        }
    }

    private mutating func yaml() {
        skipSpaces()
        if line[index...].starts(with: "- ".utf8) { index += 2; skipSpaces() }
        // A key: everything up to a colon that ends the line or is followed by a space.
        if index < line.endIndex, line[index] != UInt8(ascii: "#"), !line[index...].starts(with: "---".utf8),
           let colon = keyColon(from: index) {
            emit(index..<colon, .key)
            index = colon + 1
        }
        while index < line.endIndex {
            let byte = line[index]
            if isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")
                || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "-") && index + 1 < line.endIndex && isSpace(line[index + 1]) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "#"), index == line.startIndex || isSpace(line[index - 1]) {
                emit(index..<line.endIndex, .comment)
                return
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quoted(byte); continue }
            let word = wordEnd(from: index) { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "]") && $0 != UInt8(ascii: "}") && !isSpace($0) }
            if let colon = keyColon(from: index), colon < word {
                // A key inside a flow mapping: {width: 800}.
                emit(index..<colon, .key)
                index = colon + 1
                continue
            }
            literal(index..<word)
            index = max(word, index + 1)
        }
    }

    private mutating func json() {
        while index < line.endIndex {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") {
                let start = index
                quoted(byte, emitting: false)
                var after = index
                while after < line.endIndex, isSpace(line[after]) { after += 1 }
                emit(start..<index, after < line.endIndex && line[after] == UInt8(ascii: ":") ? .key : .string)
                continue
            }
            if isWordByte(byte) {
                let word = wordEnd(from: index, while: isWordByte)
                literal(index..<word)
                index = word
                continue
            }
            index += 1
        }
    }

    private mutating func markdown() {
        let first = state.firstLine
        state.firstLine = false
        let isRule = line.elementsEqual("---".utf8)
        if first && isRule || state.inFrontMatter && isRule {
            state.inFrontMatter = first
            emit(index..<line.endIndex, .keyword)
            return
        }
        if state.inFrontMatter {
            yaml()
            return
        }
        skipSpaces()
        if line[index...].starts(with: "#".utf8) {
            let hashes = wordEnd(from: index) { $0 == UInt8(ascii: "#") }
            if hashes - index <= 6, hashes == line.endIndex || isSpace(line[hashes]) {
                emit(line.startIndex..<line.endIndex, .heading)
                return
            }
        }
        // A list's marker: "-", "*", "+" or "1." and a space.
        let marker = wordEnd(from: index) { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        if marker < line.endIndex, marker + 1 < line.endIndex, isSpace(line[marker + 1]),
           marker > index ? line[marker] == UInt8(ascii: ".") : "-*+>".utf8.contains(line[marker]) {
            emit(index..<(marker + 1), .keyword)
            index = marker + 1
        }
        while index < line.endIndex {
            let byte = line[index]
            if byte == UInt8(ascii: "`"), let close = line[(index + 1)...].firstIndex(of: byte) {
                emit(index..<(close + 1), .string)
                index = close + 1
            } else if byte == UInt8(ascii: "]"), index + 1 < line.endIndex, line[index + 1] == UInt8(ascii: "("),
                      let close = line[(index + 2)...].firstIndex(of: UInt8(ascii: ")")) {
                index += 2
                emit(index..<close, .variable)
                index = close
            } else {
                index += 1
            }
        }
    }

    private mutating func cFamily(_ keywords: Set<String>) {
        while index < line.endIndex {
            if state.inBlockComment {
                let start = index
                while index < line.endIndex, !line[index...].starts(with: "*/".utf8) { index += 1 }
                if index < line.endIndex { index += 2; state.inBlockComment = false }
                emit(start..<index, .comment)
                continue
            }
            let byte = line[index]
            if line[index...].starts(with: "//".utf8) {
                emit(index..<line.endIndex, .comment)
                return
            }
            if line[index...].starts(with: "/*".utf8) {
                state.inBlockComment = true
                continue
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`") { quoted(byte); continue }
            if isIdentifierByte(byte) || byte == UInt8(ascii: "#") {
                let word = wordEnd(from: index + 1) { isIdentifierByte($0) || isDigit(byte) && $0 == UInt8(ascii: ".") }
                let text = String(decoding: line[index..<word], as: UTF8.self)
                if keywords.contains(text) {
                    emit(index..<word, .keyword)
                } else if isDigit(byte) {
                    emit(index..<word, .number)
                } else if word < line.endIndex, line[word] == UInt8(ascii: "(") {
                    emit(index..<word, .command)
                }
                index = word
                continue
            }
            index += 1
        }
    }

    // MARK: Pieces

    /// A string from `index`, which holds its quote, to its closing quote or the line's end.
    private mutating func quoted(_ quote: UInt8, emitting: Bool = true) {
        let start = index
        index += 1
        while index < line.endIndex, line[index] != quote {
            index += line[index] == UInt8(ascii: "\\") && quote != UInt8(ascii: "'") ? 2 : 1
        }
        index = min(index + 1, line.endIndex)
        if emitting { emit(start..<index, .string) }
    }

    private mutating func variable() {
        let start = index
        index += 1
        if index < line.endIndex, line[index] == UInt8(ascii: "{") {
            index = (line[index...].firstIndex(of: UInt8(ascii: "}")).map { $0 + 1 }) ?? line.endIndex
        } else {
            index = wordEnd(from: index, while: isIdentifierByte)
        }
        if index - start > 1 { emit(start..<index, .variable) }
    }

    /// A number, or true, false, null and their YAML kin.
    private mutating func literal(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let text = String(decoding: line[range], as: UTF8.self)
        if CodeHighlighter.Keywords.literals.contains(text) {
            emit(range, .keyword)
        } else if Double(text) != nil || text.hasPrefix("0x") && Int(text.dropFirst(2), radix: 16) != nil {
            emit(range, .number)
        }
    }

    private func keyColon(from start: Int) -> Int? {
        var position = start
        while position < line.endIndex {
            let byte = line[position]
            if byte == UInt8(ascii: ":") {
                return position > start && (position + 1 == line.endIndex || isSpace(line[position + 1])) ? position : nil
            }
            if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"") && position > start || byte == UInt8(ascii: ",") { return nil }
            position += 1
        }
        return nil
    }

    private mutating func emit(_ range: Range<Int>, _ kind: CodeHighlighter.Kind) {
        guard !range.isEmpty else { return }
        flushPlain(to: range.lowerBound)
        tokens.append((range, kind))
        plainStart = range.upperBound
    }

    private mutating func flushPlain(to end: Int) {
        if plainStart < end { tokens.append((plainStart..<end, nil)) }
        plainStart = max(plainStart, end)
    }

    private mutating func skipSpaces() {
        while index < line.endIndex, isSpace(line[index]) { index += 1 }
    }

    private func wordEnd(from start: Int, while accepts: (UInt8) -> Bool) -> Int {
        var end = start
        while end < line.endIndex, accepts(line[end]) { end += 1 }
        return end
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") || byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }
    private func isWordByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") || byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte >= 0x80
    }
}
