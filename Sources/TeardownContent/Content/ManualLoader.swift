import Foundation
import TeardownBase

/// Reads a manual folder: every Markdown file but SUMMARY.md becomes a page, every other
/// file an asset. The order comes from SUMMARY.md when there is one (mdBook's format), else
/// from front matter `weight` and `title`, then file names, with folders nested.
package struct ManualLoader {
    package static let knownKeys: Set<String> = ["title", "weight", "description"]

    package func load(_ folder: SourceFile, diagnostics: inout [Diagnostic]) -> Manual {
        guard TextFile.isDirectory(folder.absolutePath) else { return .empty(folder) }
        var files: [(SourceFile, String)] = []
        var assets: [String] = []
        collect(folder, prefix: "", files: &files, assets: &assets, diagnostics: &diagnostics)
        // Pages are independent files: they are read and parsed on all cores, kept in file order.
        let loaded = ParallelMap.map(files) { file, slug -> (ManualPage?, [Diagnostic]) in
            var local: [Diagnostic] = []
            let page = loadPage(file, slug: slug, root: folder, diagnostics: &local)
            return (page, local)
        }
        diagnostics += loaded.flatMap(\.1)
        var pages = removingDuplicateAddresses(loaded.compactMap(\.0), diagnostics: &diagnostics)
        let summary = folder.appending("SUMMARY.md")
        let summaryText = TextFile.exists(summary.absolutePath) ? TextFile.read(summary, diagnostics: &diagnostics) : nil
        func makeTree(_ diagnostics: inout [Diagnostic]) -> (entries: [Manual.Entry], listed: [Int]) {
            let lookup = ManualPageLookup(pages)
            if let summaryText {
                return summaryTree(SummaryParser.parse(summaryText, file: summary, diagnostics: &diagnostics), summary: summary,
                                   lookup: lookup, diagnostics: &diagnostics)
            }
            return folderTree(pages, lookup: lookup)
        }
        var scratch: [Diagnostic] = []
        var tree = makeTree(&scratch)
        // A Markdown file that SUMMARY.md leaves out and another page includes is a snippet, as
        // in mdBook: part of the pages that include it, not a page of its own.
        let included = Set(pages.flatMap { page in page.body.origins.map(\.file).filter { $0 != page.body.file } })
        let listed = Set(tree.listed)
        if summaryText != nil, pages.indices.contains(where: { !listed.contains($0) && included.contains(pages[$0].body.file) }) {
            pages = pages.indices.filter { listed.contains($0) || !included.contains(pages[$0].body.file) }.map { pages[$0] }
            scratch = []
            tree = makeTree(&scratch)
        }
        diagnostics += scratch
        var order: [Int] = []
        var seen = Set<Int>()
        for index in tree.listed where seen.insert(index).inserted { order.append(index) }
        let listedCount = order.count
        for index in pages.indices where !seen.contains(index) {
            diagnostics.append(.warning(.notInSummary, at: pages[index].body.file.location()))
            order.append(index)
        }
        return Manual(folder: folder, pages: pages, entries: tree.entries, order: order, listedCount: listedCount,
                      assets: assets)
    }

    // MARK: Files

    private func collect(_ folder: SourceFile, prefix: String, files: inout [(SourceFile, String)], assets: inout [String],
                         diagnostics: inout [Diagnostic]) {
        for name in TextFile.list(folder, diagnostics: &diagnostics).map(\.name) {
            let entry = folder.appending(name)
            let isTop = prefix.isEmpty
            if TextFile.isDirectory(entry.absolutePath) {
                guard TextFile.isValidName(name) else {
                    diagnostics.append(.error(.invalidName(name), at: entry.location()))
                    continue
                }
                if isTop, Manual.reservedNames.contains(name) {
                    diagnostics.append(.error(.reservedName(name, use: "a page the manual makes"), at: entry.location()))
                    continue
                }
                collect(entry, prefix: prefix + name + "/", files: &files, assets: &assets, diagnostics: &diagnostics)
            } else if entry.pathExtension == "md" {
                if isTop && name == "SUMMARY.md" { continue }
                guard TextFile.isValidName(entry.stem) else {
                    diagnostics.append(.error(.invalidName(entry.stem), at: entry.location()))
                    continue
                }
                if isTop, Manual.reservedNames.contains(entry.stem) {
                    diagnostics.append(.error(.reservedName(entry.stem, use: "a page the manual makes"), at: entry.location()))
                    continue
                }
                files.append((entry, prefix + entry.stem))
            } else if FileSystem.isRegularFile(entry.absolutePath) {
                assets.append(prefix + name)
            } else {
                // A socket or a device: not silently dropped either. (Links are reported by the listing.)
                diagnostics.append(.warning(.notPublished(reason: "it is not a regular file"),
                                            at: entry.location()))
            }
        }
    }

    private func loadPage(_ file: SourceFile, slug: String, root: SourceFile, diagnostics: inout [Diagnostic]) -> ManualPage? {
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
        let heading = split.body.split(separator: "\n", omittingEmptySubsequences: true).lazy.first { $0.hasPrefix("# ") }
            .map { $0.dropFirst(2).trimmingCharacters(in: .whitespaces) }
        var path = slug.split(separator: "/").map(String.init)
        if path.last == "index" || path.last == "README" { path.removeLast() }
        return ManualPage(slug: slug, path: path, title: title ?? heading ?? Self.title(fromName: file.stem), weight: weight,
                          body: ManualDirectives(root: root).expand(split.body, file: file, firstLine: split.bodyLine,
                                                                    diagnostics: &diagnostics))
    }

    package static func title(fromName name: String) -> String {
        name.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ").capitalized
    }

    /// index.md and README.md both stand for their folder; index.md wins.
    private func removingDuplicateAddresses(_ pages: [ManualPage], diagnostics: inout [Diagnostic]) -> [ManualPage] {
        var owner: [[String]: ManualPage] = [:]
        for page in pages {
            if let other = owner[page.path], other.slug.hasSuffix("index") { continue }
            owner[page.path] = page
        }
        return pages.filter { page in
            guard let kept = owner[page.path], kept.slug != page.slug else { return true }
            diagnostics.append(.warning(.shadowedPage(by: kept.body.file.name), at: page.body.file.location()))
            return false
        }
    }

    // MARK: Order

    private func summaryTree(_ items: [SummaryParser.Item], summary: SourceFile, lookup: ManualPageLookup,
                             diagnostics: inout [Diagnostic]) -> ([Manual.Entry], [Int]) {
        var entries: [Manual.Entry] = []
        var listed: [Int] = []
        // The latest entry at each depth, for parents.
        var stack: [Int] = []
        for item in items {
            var kind: Manual.Entry.Kind
            switch item.kind {
            case .part: kind = .part
            case .separator: kind = .separator
            case .chapter(nil): kind = .draft
            case .chapter(let link?):
                let path = Manual.normalized(link.split(separator: "#", omittingEmptySubsequences: false).first.map(String.init) ?? "")
                if let index = lookup.page(source: path) {
                    kind = .page(index)
                    listed.append(index)
                } else {
                    diagnostics.append(.warning(.summaryMissingPage(link), at: summary.location(line: item.line)))
                    kind = .draft
                }
            }
            let depth = min(item.depth, stack.count)
            stack = Array(stack.prefix(depth))
            let parent = depth > 0 ? stack.last : nil
            entries.append(Manual.Entry(kind: kind, title: item.title, depth: depth, parent: parent))
            if case .part = kind { stack = [] } else if case .separator = kind { stack = [] } else { stack.append(entries.count - 1) }
        }
        return (entries, listed)
    }

    /// Without SUMMARY.md: the top index page first, then pages and folders by weight, title and
    /// name; a folder's index page heads the folder, its other pages nested under it.
    private func folderTree(_ pages: [ManualPage], lookup: ManualPageLookup) -> ([Manual.Entry], [Int]) {
        var entries: [Manual.Entry] = []
        var listed: [Int] = []
        func add(folder: [String], depth: Int, parent: Int?) {
            var children: [(weight: Int, title: String, name: String, page: Int?, folder: [String]?)] = []
            var subfolders = Set<String>()
            for (index, page) in pages.enumerated() {
                let source = page.slug.split(separator: "/").map(String.init)
                guard source.count > folder.count, Array(source.prefix(folder.count)) == folder else { continue }
                if source.count == folder.count + 1 {
                    if page.path == folder { continue }
                    children.append((page.weight, page.title.lowercased(), source.last!, index, nil))
                } else {
                    subfolders.insert(source[folder.count])
                }
            }
            for name in subfolders {
                let path = folder + [name]
                let index = lookup.page(at: path)
                let title = index.map { pages[$0].title } ?? Self.title(fromName: name)
                children.append((index.map { pages[$0].weight } ?? 0, title.lowercased(), name, index, path))
            }
            children.sort { ($0.weight, $0.title, $0.name) < ($1.weight, $1.title, $1.name) }
            for child in children {
                let title = child.page.map { pages[$0].title } ?? Self.title(fromName: child.name)
                entries.append(Manual.Entry(kind: child.page.map { .page($0) } ?? .draft, title: title, depth: depth, parent: parent))
                if let page = child.page { listed.append(page) }
                if let path = child.folder { add(folder: path, depth: depth + 1, parent: entries.count - 1) }
            }
        }
        if let index = lookup.page(at: []) {
            entries.append(Manual.Entry(kind: .page(index), title: pages[index].title, depth: 0, parent: nil))
            listed.append(index)
        }
        add(folder: [], depth: 0, parent: nil)
        return (entries, listed)
    }
}
