import Foundation

/// Reads a manual folder: every Markdown file but SUMMARY.md becomes a page.
struct ManualLoader {
    static let knownKeys: Set<String> = ["title", "weight", "description"]

    func load(_ folder: SourceFile, diagnostics: inout [Diagnostic]) -> [ManualPage] {
        guard TextFile.isDirectory(folder.absolutePath) else { return [] }
        var pages: [ManualPage] = []
        collect(folder, prefix: "", into: &pages, diagnostics: &diagnostics)
        return pages.sorted { ($0.weight, $0.slug) < ($1.weight, $1.slug) }
    }

    private func collect(_ folder: SourceFile, prefix: String, into pages: inout [ManualPage],
                         diagnostics: inout [Diagnostic]) {
        for name in TextFile.entries(of: folder.absolutePath) {
            let entry = folder.appending(name)
            if TextFile.isDirectory(entry.absolutePath) {
                guard TextFile.isValidName(name) else {
                    diagnostics.append(.error(.invalidName(name), at: entry.location()))
                    continue
                }
                collect(entry, prefix: prefix + name + "/", into: &pages, diagnostics: &diagnostics)
            } else if entry.pathExtension == "md", !(prefix.isEmpty && name == "SUMMARY.md") {
                guard TextFile.isValidName(entry.stem) else {
                    diagnostics.append(.error(.invalidName(entry.stem), at: entry.location()))
                    continue
                }
                if let page = loadPage(entry, slug: prefix + entry.stem, diagnostics: &diagnostics) {
                    pages.append(page)
                }
            }
        }
    }

    private func loadPage(_ file: SourceFile, slug: String, diagnostics: inout [Diagnostic]) -> ManualPage? {
        guard let split = FrontMatter.read(file, diagnostics: &diagnostics) else { return nil }
        var title: String?
        var weight = 0
        if let yamlText = split.yaml {
            guard let yaml = YAMLMap.parse(yamlText, file: file, lineOffset: 1, expected: "page details",
                                           diagnostics: &diagnostics)
            else { return nil }
            yaml.warnUnknownKeys(known: Self.knownKeys, diagnostics: &diagnostics)
            title = yaml.string("title", diagnostics: &diagnostics)
            weight = yaml.int("weight", diagnostics: &diagnostics) ?? 0
        }
        let heading = split.body.split(separator: "\n").first { $0.hasPrefix("# ") }
            .map { $0.dropFirst(2).trimmingCharacters(in: .whitespaces) }
        let fallback = file.stem.replacingOccurrences(of: "-", with: " ").capitalized
        return ManualPage(slug: slug, title: title ?? heading ?? fallback, weight: weight,
                          body: MarkdownSource(text: split.body, file: file, firstLine: split.bodyLine))
    }
}
