import TeardownBase

/// A Markdown file split into its YAML front matter and body.
package struct FrontMatter {
    /// The YAML between the `---` lines; nil when the file has none.
    package let yaml: String?
    package let body: String
    /// Line of the file on which the body starts.
    package let bodyLine: Int

    package enum Failure: Error { case unclosed }

    /// Reads and splits a Markdown file, reporting unreadable files and unclosed front matter.
    package static func read(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> FrontMatter? {
        guard let text = TextFile.read(file, diagnostics: &diagnostics) else { return nil }
        do {
            return try split(text)
        } catch {
            diagnostics.append(.error(.unclosedFrontMatter, at: file.location()))
            return nil
        }
    }

    package static func split(_ text: String) throws(Failure) -> FrontMatter {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.trimmingTrailingCarriageReturn == "---" else {
            return FrontMatter(yaml: nil, body: text, bodyLine: 1)
        }
        lines.removeFirst()
        guard let end = lines.firstIndex(where: { $0.trimmingTrailingCarriageReturn == "---" || $0.trimmingTrailingCarriageReturn == "..." }) else {
            throw .unclosed
        }
        return FrontMatter(
            yaml: lines[..<end].joined(separator: "\n"),
            body: lines[(end + 1)...].joined(separator: "\n"),
            bodyLine: end + 3
        )
    }
}

extension Substring {
    fileprivate var trimmingTrailingCarriageReturn: Substring {
        last == "\r" ? dropLast() : self
    }
}
