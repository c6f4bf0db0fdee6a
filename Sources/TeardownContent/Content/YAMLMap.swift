import Yams
import TeardownBase

/// One YAML mapping read with positions, so every problem in it can name its line.
package struct YAMLMap {
    package typealias Entry = (key: String, keyMark: Mark?, value: Node)

    package let file: SourceFile
    /// Lines before the YAML text in its file (front matter starts on line 2).
    package let lineOffset: Int
    package let mark: Mark?
    package let entries: [Entry]

    /// Parses `text` as a mapping; nil after reporting a syntax error or a non-mapping document.
    package static func parse(
        _ text: String, file: SourceFile, lineOffset: Int = 0, expected: String,
        diagnostics: inout [Diagnostic]
    ) -> YAMLMap? {
        let node: Node?
        do {
            // An explicit encoding: the default one reads the process environment on every call.
            node = try Yams.compose(yaml: text, Self.resolver, .default, .utf8)
        } catch let error as YamlError {
            let explained = YAMLHint.explain(error, in: text, lineOffset: lineOffset)
            let at = explained.position.map { file.location(line: $0.line + lineOffset, column: $0.column) }
                ?? explained.mark.map { Self.location($0, file, lineOffset) } ?? error.location(in: file, lineOffset: lineOffset)
            diagnostics.append(.error(.yamlSyntax(explained.problem), at: at))
            return nil
        } catch {
            diagnostics.append(.error(.yamlSyntax(ErrorText.text(error)), at: file.location(line: lineOffset + 1)))
            return nil
        }
        guard let node else {
            return YAMLMap(file: file, lineOffset: lineOffset, mark: nil, entries: [])
        }
        guard let map = YAMLMap(node, file: file, lineOffset: lineOffset) else {
            diagnostics.append(.error(.notAMapping(expected: expected), at: location(node.mark, file, lineOffset)))
            return nil
        }
        return map
    }

    /// No tags resolved: every scalar is text, and `bool` reads the plain scalars YAML 1.1 takes
    /// as truth values (`YAMLScalars`). Yams resolves a tag with a regular expression a rule,
    /// compiled by ICU on first use, at the start of every command that reads a site.yaml.
    /// Dates are parsed by ISODate.
    private static let resolver = Resolver.basic

    package init(file: SourceFile, lineOffset: Int, mark: Mark?, entries: [Entry]) {
        self.file = file
        self.lineOffset = lineOffset
        self.mark = mark
        self.entries = entries
    }

    package init?(_ node: Node, file: SourceFile, lineOffset: Int) {
        guard let mapping = node.mapping else { return nil }
        self.file = file
        self.lineOffset = lineOffset
        self.mark = mapping.mark
        self.entries = mapping.map { (key: $0.key.string ?? "\($0.key)", keyMark: $0.key.mark, value: $0.value) }
    }

    /// Where the mapping starts: the place to report a missing key.
    package var location: SourceLocation { Self.location(mark, file, lineOffset) }

    /// The entry for `key`; a null value (`key:` or `key: ~`) counts as not given.
    package func entry(_ key: String) -> Entry? { entries.first { $0.key == key && $0.value.null == nil } }

    package func location(of key: String) -> SourceLocation {
        guard let entry = entry(key) else { return location }
        return Self.location(entry.value.mark ?? entry.keyMark, file, lineOffset)
    }

    package func keyLocation(_ entry: Entry) -> SourceLocation { Self.location(entry.keyMark, file, lineOffset) }

    package func string(_ key: String, required: Bool = false, diagnostics: inout [Diagnostic]) -> String? {
        guard let entry = entry(key) else {
            if required { diagnostics.append(.error(.missingKey(key), at: location)) }
            return nil
        }
        guard let scalar = entry.value.scalar else {
            diagnostics.append(.error(.wrongType(key: key, expected: "text"), at: location(of: key)))
            return nil
        }
        if required && scalar.string.allSatisfy(\.isWhitespace) {
            diagnostics.append(.error(.invalidValue(key: key, reason: "must not be empty"), at: location(of: key)))
            return nil
        }
        return scalar.string
    }

    package func int(_ key: String, required: Bool = false, diagnostics: inout [Diagnostic]) -> Int? {
        guard let entry = entry(key) else {
            if required { diagnostics.append(.error(.missingKey(key), at: location)) }
            return nil
        }
        guard let value = entry.value.int else {
            diagnostics.append(.error(.wrongType(key: key, expected: "a whole number"), at: location(of: key)))
            return nil
        }
        return value
    }

    package func bool(_ key: String, diagnostics: inout [Diagnostic]) -> Bool? {
        guard let entry = entry(key) else { return nil }
        guard let value = YAMLScalars.bool(entry.value) else {
            diagnostics.append(.error(.wrongType(key: key, expected: "true or false"), at: location(of: key)))
            return nil
        }
        return value
    }

    /// A list of strings; a single string is accepted as a one-element list.
    package func stringList(_ key: String, diagnostics: inout [Diagnostic]) -> [String] {
        guard let entry = entry(key) else { return [] }
        if let sequence = entry.value.sequence {
            let strings = sequence.compactMap { $0.scalar?.string }
            if strings.count == sequence.count { return strings }
        } else if let scalar = entry.value.scalar, entry.value.null == nil {
            return [scalar.string]
        }
        diagnostics.append(.error(.wrongType(key: key, expected: "a list of text"), at: location(of: key)))
        return []
    }

    package func map(_ key: String, required: Bool = false, diagnostics: inout [Diagnostic]) -> YAMLMap? {
        guard let entry = entry(key) else {
            if required { diagnostics.append(.error(.missingKey(key), at: location)) }
            return nil
        }
        guard let map = YAMLMap(entry.value, file: file, lineOffset: lineOffset) else {
            diagnostics.append(.error(.wrongType(key: key, expected: "a mapping"), at: location(of: key)))
            return nil
        }
        return map
    }

    package func date(_ key: String, required: Bool = false, diagnostics: inout [Diagnostic]) -> ISODate? {
        guard let text = string(key, required: required, diagnostics: &diagnostics) else { return nil }
        guard let date = ISODate(text) else {
            diagnostics.append(.error(.invalidDate(key: key, value: text), at: location(of: key)))
            return nil
        }
        return date
    }

    /// Warns about keys the format does not define: usually a typo that would otherwise be silently ignored.
    package func warnUnknownKeys(known: Set<String>, diagnostics: inout [Diagnostic]) {
        for entry in entries where !known.contains(entry.key) {
            diagnostics.append(.warning(.unknownKey(entry.key, known: known.sorted()), at: keyLocation(entry)))
        }
    }

    package static func location(_ mark: Mark?, _ file: SourceFile, _ lineOffset: Int) -> SourceLocation {
        guard let mark else { return file.location(line: lineOffset + 1) }
        return file.location(line: mark.line + lineOffset, column: mark.column)
    }
}

extension YamlError {
    package var problemText: String {
        switch self {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            problem
        case .reader(let problem, _, _, _):
            problem
        case .duplicatedKeysInMapping(let duplicates, _):
            "duplicate keys: \(duplicates.joined(separator: ", "))"
        default:
            "\(self)"
        }
    }

    package func location(in file: SourceFile, lineOffset: Int) -> SourceLocation {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            YAMLMap.location(mark, file, lineOffset)
        case .duplicatedKeysInMapping(_, let context):
            YAMLMap.location(context.mark, file, lineOffset)
        default:
            file.location(line: lineOffset + 1)
        }
    }
}
