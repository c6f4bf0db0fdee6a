import Foundation
import SystemPackage
import TeardownBase

/// mdBook's directives in a manual page, expanded as mdBook's own preprocessor does, so that an
/// mdBook book drops in: `{{#include file}}` and `{{#rustdoc_include file}}` with a line range
/// (`:5`, `:5:10`, `:5:`, `::10`) or an anchor (`:name`, between `ANCHOR: name` and
/// `ANCHOR_END: name`), and `{{#playground file}}` as a Rust code block. Files must lie inside
/// the manual's folder. `\{{#…}}` is written as it is without its backslash; any other
/// directive is left as written, with a warning at its line.
package struct ManualDirectives {
    /// The manual's folder: nothing outside it is read.
    package let root: SourceFile
    /// Includes within includes, as deep as mdBook goes.
    package static let maxDepth = 10
    /// A file larger than this is not included: a manual page is meant to be read.
    package static let maxBytes = 1 << 20
    package static let supported: Set<String> = ["include", "rustdoc_include", "playground"]

    /// `text` with its directives expanded, and where each of its lines came from.
    package func expand(_ text: String, file: SourceFile, firstLine: Int, diagnostics: inout [Diagnostic]) -> MarkdownSource {
        guard text.contains("{{") else { return MarkdownSource(text: text, file: file, firstLine: firstLine) }
        var expanded = Expanded()
        expand(text, file: file, firstLine: firstLine, depth: 0, into: &expanded, diagnostics: &diagnostics)
        return MarkdownSource(text: expanded.lines.joined(separator: "\n"), file: file, firstLine: firstLine, origins: expanded.origins)
    }

    /// The lines written so far, and where each run of them came from.
    private struct Expanded {
        var lines: [String] = []
        var origins: [MarkdownSource.LineOrigin] = []

        mutating func append(_ line: String, from file: SourceFile, at number: Int) {
            // A new run starts wherever the next line does not follow from the last run's.
            if origins.last.map({ $0.file != file || $0.fileLine + (lines.count + 1 - $0.line) != number }) ?? true {
                origins.append(.init(line: lines.count + 1, file: file, fileLine: number))
            }
            lines.append(line)
        }
    }

    private func expand(_ text: String, file: SourceFile, firstLine: Int, depth: Int, into expanded: inout Expanded,
                        diagnostics: inout [Diagnostic]) {
        // Inside code (a fenced block, or between backticks) an unknown directive is text about
        // templates (Mustache's `{{#tags}}`), not a mistake: it is kept without a warning.
        var fence: Substring?
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = firstLine + offset
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix { $0 == trimmed.first }
            }
            guard line.contains("{{") else {
                expanded.append(String(line), from: file, at: number)
                continue
            }
            expand(line: line, number: number, inFence: fence != nil, file: file, depth: depth, into: &expanded,
                   diagnostics: &diagnostics)
        }
    }

    /// One line with directives: what stands between them kept, each directive replaced by what it includes.
    private func expand(line: Substring, number: Int, inFence: Bool, file: SourceFile, depth: Int, into expanded: inout Expanded,
                        diagnostics: inout [Diagnostic]) {
        var output = ""
        var rest = line
        while let open = rest.range(of: "{{") {
            let escaped = open.lowerBound > rest.startIndex && rest[rest.index(before: open.lowerBound)] == "\\"
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let inner = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            guard inner.hasPrefix("#"), !escaped else {
                output += escaped && inner.hasPrefix("#")
                    ? rest[..<rest.index(before: open.lowerBound)] + rest[open.lowerBound..<close.upperBound]
                    : rest[..<close.upperBound]
                rest = rest[close.upperBound...]
                continue
            }
            let raw = String(rest[open.lowerBound..<close.upperBound])
            output += rest[..<open.lowerBound]
            rest = rest[close.upperBound...]
            let words = inner.dropFirst().split(separator: " ", maxSplits: 1)
            let name = words.first.map(String.init) ?? ""
            let argument = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
            let location = file.location(line: number, column: line.distance(from: line.startIndex, to: open.lowerBound) + 1)
            guard Self.supported.contains(name) else {
                let inCode = inFence || line[..<open.lowerBound].filter { $0 == "`" }.count % 2 == 1
                if !inCode { diagnostics.append(.warning(.unsupportedDirective(name), at: location)) }
                output += raw
                continue
            }
            guard depth < Self.maxDepth else {
                diagnostics.append(.warning(.directiveFailed(name, reason: "includes nest deeper than \(Self.maxDepth)"), at: location))
                continue
            }
            let target = name == "playground" ? String(argument.split(separator: " ").first ?? "") : argument
            guard let (included, source) = read(target, from: file, directive: name, at: location, diagnostics: &diagnostics)
            else { continue }
            // What came before the directive on its line stays a line of its own (a directive
            // is almost always alone on its line, where this makes no difference).
            if !output.isEmpty {
                expanded.append(output, from: file, at: number)
                output = ""
            }
            var body = included
            if body.hasSuffix("\n") { body.removeLast() }
            if name == "playground" { expanded.append("```rust", from: file, at: number) }
            expand(body, file: source, firstLine: 1, depth: depth + 1, into: &expanded, diagnostics: &diagnostics)
            if name == "playground" { expanded.append("```", from: file, at: number) }
        }
        output += rest
        if !output.isEmpty || !line.contains("{{#") { expanded.append(output, from: file, at: number) }
    }

    /// The part of a file a directive's target names (`path`, `path:5:10`, `path:anchor`), and the file.
    private func read(_ target: String, from page: SourceFile, directive: String, at location: SourceLocation,
                      diagnostics: inout [Diagnostic]) -> (String, SourceFile)? {
        func fail(_ reason: String) -> (String, SourceFile)? {
            diagnostics.append(.warning(.directiveFailed(directive, reason: reason), at: location))
            return nil
        }
        let pieces = target.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(pieces.first ?? "")
        guard !path.isEmpty else { return fail("it names no file") }
        let folder = FilePath(page.absolutePath).removingLastComponent()
        let resolved = folder.appending(path).lexicallyNormalized()
        let rootPath = FilePath(root.absolutePath).lexicallyNormalized()
        guard !path.hasPrefix("/"), resolved.starts(with: rootPath), resolved != rootPath else {
            return fail("'\(path)' is outside the manual's folder")
        }
        let full = resolved.string
        guard FileSystem.isRegularFile(full) else { return fail("'\(path)' is not a file of the manual") }
        guard (FileSystem.size(of: full) ?? 0) <= Self.maxBytes else { return fail("'\(path)' is over 1 MB") }
        // Read as every text file of a site is: a byte order mark and Windows line ends dropped.
        guard let data = FileManager.default.contents(atPath: full), let text = TextFile.decode(data) else {
            return fail("'\(path)' cannot be read as UTF-8 text")
        }
        let source = root.appending(String(full.dropFirst(rootPath.string.count + 1)))
        let selector = pieces.count > 1 ? String(pieces[1]) : ""
        guard let selected = Self.select(text, selector) else {
            return fail(selector.first?.isNumber == true || selector.hasPrefix(":")
                        ? "'\(selector)' is not a line range of '\(path)'" : "'\(path)' has no anchor '\(selector)'")
        }
        return (selected, source)
    }

    /// The lines `selector` picks from `text` (all of them when it is empty), without the lines
    /// that mark anchors, as mdBook leaves them out.
    package static func select(_ text: String, _ selector: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let isMarker = { (line: String) in line.contains("ANCHOR:") || line.contains("ANCHOR_END:") }
        if selector.isEmpty { return lines.filter { !isMarker($0) }.joined(separator: "\n") + "\n" }
        let bounds = selector.split(separator: ":", omittingEmptySubsequences: false)
        if bounds.allSatisfy({ $0.isEmpty || Int($0) != nil }), bounds.count <= 2 {
            let start = bounds[0].isEmpty ? 1 : Int(bounds[0])!
            let end = bounds.count == 1 ? start : (bounds[1].isEmpty ? lines.count : Int(bounds[1])!)
            guard start >= 1, end >= start, start <= lines.count else { return nil }
            return lines[(start - 1)..<min(end, lines.count)].filter { !isMarker($0) }.joined(separator: "\n") + "\n"
        }
        let name = selector
        func marks(_ line: String, _ kind: String) -> Bool {
            guard let range = line.range(of: kind) else { return false }
            return line[range.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) == name
        }
        guard let start = lines.firstIndex(where: { marks($0, "ANCHOR:") }) else { return nil }
        let end = lines[(start + 1)...].firstIndex(where: { marks($0, "ANCHOR_END:") }) ?? lines.count
        return lines[(start + 1)..<end].filter { !isMarker($0) }.joined(separator: "\n") + "\n"
    }
}
