import Foundation
import TeardownBase
import TeardownContent

/// A manual with every page's Markdown rendered once: its headings with their anchors, and its
/// links resolved against the manual's files. Links to a missing page, anchor or file are
/// reported with their file and line; links between pages are rewritten to the published pages
/// (or, on the print page, to anchors on that page).
package struct RenderedManual: Sendable {
    package let manual: Manual
    /// Where the manual is published: /manual/ or /machines/<m>/manual/.
    package let base: URLPath
    /// The machine whose manual this is; nil for the site's.
    package let machine: Int?
    package let documents: [MarkdownDocument]
    /// Each page's heading anchors, in heading order.
    package let anchors: [[String]]
    private let anchorSets: [Set<String>]
    private let assets: Set<String>
    /// Each listed page's first entry in the navigation, and its place in the reading order.
    package let entryOfPage: [Int: Int]
    package let positionOfPage: [Int: Int]

    package init(_ manual: Manual, base: URLPath, machine: Int?, markdown: MarkdownRenderer, allowHTML: Bool,
         diagnostics: inout [Diagnostic]) {
        self.manual = manual
        self.base = base
        self.machine = machine
        let documents = ParallelMap.map(manual.pages) { markdown.document($0.body.text, trust: .designer(allowHTML: allowHTML)) }
        self.documents = documents
        anchors = documents.map { HeadingAnchors.ids(for: $0.headings) }
        anchorSets = anchors.map(Set.init)
        assets = Set(manual.assets)
        var entryOfPage: [Int: Int] = [:]
        for (index, entry) in manual.entries.enumerated() {
            if case .page(let page) = entry.kind, entryOfPage[page] == nil { entryOfPage[page] = index }
        }
        self.entryOfPage = entryOfPage
        positionOfPage = Dictionary(manual.order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for (index, document) in documents.enumerated() {
            let page = manual.pages[index]
            for dropped in document.droppedHTML {
                diagnostics.append(.warning(dropped.problem, at: page.body.location(line: dropped.line, column: 1)))
            }
            for link in document.links {
                if case .broken(let reason) = resolve(link.destination, from: index) {
                    diagnostics.append(.warning(.brokenLink(link.destination, reason: reason),
                                                at: page.body.location(line: link.line,
                                                                            column: max(1, link.column))))
                }
            }
        }
    }

    package func url(of page: Int) -> URLPath { Routes.manualPage(manual.pages[page], in: base) }

    /// The id of a page's section on the print page: its file's path without `.md`.
    package func printID(of page: Int) -> String { manual.pages[page].slug }

    /// A page's HTML with anchored headings and rewritten links, for the page at `url`, or for
    /// the print page when `forPrint` (where every id is prefixed by its page's).
    package func html(of page: Int, at url: URLPath, forPrint: Bool = false) -> String {
        let document = documents[page]
        let prefix = forPrint ? printID(of: page) + ":" : ""
        let anchored = HeadingAnchors.inject(anchors[page], levels: document.headings.map(\.level), into: document.html,
                                             prefix: prefix)
        let linked = rewriteLinks(anchored) { link in
            switch resolve(link, from: page) {
            case .unchanged, .broken: return nil
            case .fragment(let fragment): return forPrint ? "#\(prefix)\(fragment)" : nil
            case .page(let target, let fragment):
                if forPrint { return "#" + printID(of: target) + (fragment.map { ":" + $0 } ?? "") }
                return self.url(of: target).relative(from: url) + (fragment.map { "#" + $0 } ?? "")
            case .asset(let path):
                return Routes.manualAsset(path, in: base).relative(from: url)
            case .site(let target, let fragment):
                return target.relative(from: url) + (fragment.map { "#" + $0 } ?? "")
            }
        }
        // Samples (a machine.json, a front matter, a command's output) are left out of search:
        // an excerpt quoting one reads as a scrape, and what they show the prose around them says.
        return String(decoding: ByteSearch.replacing(Self.codeBlock, with: Self.unindexedCodeBlock, in: Array(linked.utf8)),
                      as: UTF8.self)
    }

    private static let codeBlock = Array("<pre>".utf8)
    private static let unindexedCodeBlock = Array("<pre data-pagefind-ignore>".utf8)

    package enum Target: Equatable {
        /// Outside the manual (another site, an absolute path, a scheme): left as written.
        case unchanged
        case fragment(String)
        case page(Int, fragment: String?)
        case asset(String)
        /// Another part of the site, outside the manual.
        case site(URLPath, fragment: String?)
        case broken(String)
    }

    package func resolve(_ link: String, from page: Int) -> Target {
        if link.isEmpty { return .unchanged }
        if link.hasPrefix("#") {
            let fragment = String(link.dropFirst())
            return anchorSets[page].contains(fragment) ? .fragment(fragment)
                : .broken("this page has no heading with the anchor '#\(fragment)'")
        }
        if link.hasPrefix("/") || Self.hasScheme(link) || link.contains("?") { return .unchanged }
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let raw = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : nil
        let decoded = raw.removingPercentEncoding ?? raw
        let directory = (manual.pages[page].slug as NSString).deletingLastPathComponent
        let joined = directory.isEmpty ? decoded : directory + "/" + decoded
        let resolved = Manual.normalized(joined)
        if resolved.hasPrefix("..") {
            // The published site mirrors content/ (content/manual -> /manual/, machines/<m>/manual
            // -> /machines/<m>/manual/), so a link out of the manual is followed the same way.
            let site = ((base.value + resolved) as NSString).standardizingPath
            guard site.hasPrefix("/") else { return .unchanged }
            return .site(URLPath(site + (raw.hasSuffix("/") && site != "/" ? "/" : "")), fragment: fragment)
        }
        var target: Int?
        if resolved.hasSuffix(".md") {
            target = manual.lookup.page(source: resolved)
            if target == nil { return .broken("the manual has no page '\(resolved)'") }
        } else if resolved.hasSuffix(".html") {
            // mdBook books link rendered pages: "setup.html" is setup.md's page, and
            // "format/index.html" the folder's (its index.md or README.md).
            let stem = String(resolved.dropLast(5))
            var folder = stem.split(separator: "/").map(String.init)
            if folder.last == "index" { folder.removeLast() }
            target = manual.lookup.page(source: stem + ".md") ?? manual.lookup.page(at: folder)
            if target == nil { return .broken("the manual has no page for '\(resolved)'") }
        } else if raw.isEmpty || raw.hasSuffix("/") || resolved.isEmpty {
            target = manual.lookup.page(at: resolved.split(separator: "/").map(String.init))
            if target == nil { return .broken("the manual has no page for the folder '\(resolved)'") }
        }
        if let target {
            if let fragment, !fragment.isEmpty, !anchorSets[target].contains(fragment) {
                return .broken("'\(manual.pages[target].slug).md' has no heading with the anchor '#\(fragment)'")
            }
            return .page(target, fragment: fragment.flatMap { $0.isEmpty ? nil : $0 })
        }
        return assets.contains(resolved) ? .asset(resolved) : .broken("the manual folder has no file '\(resolved)'")
    }

    private static func hasScheme(_ link: String) -> Bool {
        guard let colon = link.firstIndex(of: ":") else { return false }
        return !link[..<colon].contains("/")
    }

    /// Replaces the targets of cmark-gfm's `href` and `src` attributes for which `replace` has
    /// one. It scans bytes: Foundation's `range(of:)` made this most of a manual's build time.
    private func rewriteLinks(_ html: String, _ replace: (String) -> String?) -> String {
        let bytes = Array(html.utf8)
        let href = Array(" href=\"".utf8), src = Array(" src=\"".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 256)
        var copied = 0
        var index = 0
        func matches(_ pattern: [UInt8], at position: Int) -> Bool {
            position + pattern.count <= bytes.count && bytes[position..<position + pattern.count].elementsEqual(pattern)
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: " ") else {
                index += 1
                continue
            }
            let length = matches(href, at: index) ? href.count : matches(src, at: index) ? src.count : 0
            guard length > 0 else {
                index += 1
                continue
            }
            let start = index + length
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            let written = String(decoding: bytes[start..<end], as: UTF8.self)
            let link = written.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#x27;", with: "'")
            if let replacement = replace(link) {
                output += bytes[copied..<start]
                output += Array(HTMLEscaping.attribute(replacement).utf8)
                copied = end
            }
            index = end
        }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }
}
