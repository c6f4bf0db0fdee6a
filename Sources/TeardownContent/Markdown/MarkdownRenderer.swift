import CCmarkGFM
import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import TeardownBase

/// Renders Markdown to HTML with the system cmark-gfm. All C pointers of cmark stay in this file.
public struct MarkdownRenderer: Sendable {
    /// Who wrote the text decides what it may contain.
    public enum Trust: Sendable {
        /// Visitors: never raw HTML; `javascript:`, `vbscript:`, `file:` and non-image `data:` links
        /// lose their target; links are marked `nofollow ugc`.
        case community
        /// Designers and manual authors: all raw HTML only when the site opts in with
        /// `unsafe_html: true`. Otherwise, for them and for visitors, the raw HTML that cannot run
        /// script is kept (`HTMLAllowlist`), and the rest left out.
        case designer(allowHTML: Bool)
    }

    private static let extensionNames = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

    // cmark-gfm's extension registry is global; a static let runs once, thread-safely, before any render.
    private static let registered: Bool = {
        cmark_gfm_core_extensions_ensure_registered()
        return extensionNames.allSatisfy { cmark_find_syntax_extension($0) != nil }
    }()

    private static let inlineLock = NSLock()

    public init() {
        _ = Self.registered
    }

    /// `topLevel` is the level the text's shallowest heading may have: text placed under a
    /// page's own headings (a description in its discussion) has its headings moved down, all
    /// by the same steps and at most to h6, so that the page keeps one h1.
    public func render(_ markdown: String, trust: Trust, topLevel: Int = 1) -> String {
        parsed(markdown, trust: trust) { document, parser, options, _ in
            if topLevel > 1 { Self.lowerHeadings(document, to: topLevel) }
            return html(document, parser: parser, options: options, trust: trust)
        } ?? ""
    }

    private static func lowerHeadings(_ document: OpaquePointer, to topLevel: Int) {
        var headings: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == CMARK_NODE_HEADING {
                headings.append(node)
            }
        }
        guard let shallowest = headings.map({ Int(cmark_node_get_heading_level($0)) }).min(), shallowest < topLevel else { return }
        for node in headings {
            cmark_node_set_heading_level(node, Int32(min(6, Int(cmark_node_get_heading_level(node)) + topLevel - shallowest)))
        }
    }

    /// Renders `markdown` and lists its headings and link targets, for a manual's table of
    /// contents, anchors and link checks.
    public func document(_ markdown: String, trust: Trust) -> MarkdownDocument {
        parsed(markdown, trust: trust) { document, parser, options, dropped in
            var headings: [MarkdownDocument.Heading] = []
            var links: [MarkdownDocument.Link] = []
            var heading: (level: Int, text: String)?
            if let iterator = cmark_iter_new(document) {
                defer { cmark_iter_free(iterator) }
                while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                    guard let node = cmark_iter_get_node(iterator) else { continue }
                    let type = cmark_node_get_type(node)
                    if type == CMARK_NODE_HEADING {
                        if event == CMARK_EVENT_ENTER {
                            heading = (Int(cmark_node_get_heading_level(node)), "")
                        } else if let finished = heading {
                            headings.append(.init(level: finished.level, text: finished.text.trimmingCharacters(in: .whitespaces)))
                            heading = nil
                        }
                    } else if event == CMARK_EVENT_ENTER, type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
                        if let url = cmark_node_get_url(node) {
                            links.append(.init(destination: String(cString: url), line: Int(cmark_node_get_start_line(node)),
                                               column: Int(cmark_node_get_start_column(node)), isImage: type == CMARK_NODE_IMAGE))
                        }
                    } else if heading != nil, type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE {
                        heading!.text += cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                    } else if heading != nil, type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                        heading!.text += " "
                    }
                }
            }
            return MarkdownDocument(html: html(document, parser: parser, options: options, trust: trust),
                                    headings: headings, links: links,
                                    droppedHTML: dropped)
        } ?? MarkdownDocument(html: "", headings: [], links: [], droppedHTML: [])
    }

    private func parsed<Result>(_ markdown: String, trust: Trust,
                                _ body: (OpaquePointer, OpaquePointer, Int32, [HTMLAllowlist.Dropped]) -> Result) -> Result? {
        // Without GITHUB_PRE_LANG, a fence's info string becomes `<code class="language-x">`:
        // GitHub's `<pre lang="x">` puts "text" or "yaml" where HTML wants a language tag.
        var options = CMARK_OPT_FOOTNOTES | CMARK_OPT_SMART
        if case .designer(allowHTML: true) = trust {
            options |= CMARK_OPT_UNSAFE
        }
        guard let parser = cmark_parser_new(options) else { return nil }
        defer { cmark_parser_free(parser) }
        for name in Self.extensionNames {
            if let syntaxExtension = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, syntaxExtension)
            }
        }
        var text = markdown
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                cmark_parser_feed(parser, chars.baseAddress, chars.count)
            }
        }
        // Finishing parses the inlines, and cmark-gfm keeps the extensions' trigger characters
        // (`:` and `w` for autolinks, `~` for strikethrough) in one global table that every
        // parse adds to and removes from as it goes: two at once lose each other's links.
        Self.inlineLock.lock()
        let finished = cmark_parser_finish(parser)
        Self.inlineLock.unlock()
        guard let document = finished else { return nil }
        defer { cmark_node_free(document) }
        Self.markAlerts(document)
        let emptied = Self.markDefinitionLists(document)
        // The moved text nodes still point into their old paragraphs' buffers: those are freed
        // only once the HTML is written.
        defer { emptied.forEach { cmark_node_free($0) } }
        var dropped: [HTMLAllowlist.Dropped] = []
        let community = if case .community = trust { true } else { false }
        if case .designer(allowHTML: true) = trust {} else { dropped = Self.keepAllowedHTML(document, imagesAsLinks: community) }
        return body(document, parser, options, dropped)
    }

    /// Each piece of raw HTML becomes a custom node holding what `HTMLAllowlist` keeps of it,
    /// which safe mode writes as it is (it writes raw HTML as a comment saying it was left out,
    /// and keeps refusing a Markdown link to `javascript:`); what a line of text left open is
    /// closed at the end of its node, what blocks left open after the last block.
    private static func keepAllowedHTML(_ document: OpaquePointer, imagesAsLinks: Bool) -> [HTMLAllowlist.Dropped] {
        var pieces: [OpaquePointer] = []
        if let iterator = cmark_iter_new(document) {
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                      [CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE].contains(cmark_node_get_type(node)) else { continue }
                pieces.append(node)
            }
            cmark_iter_free(iterator)
        }
        guard !pieces.isEmpty else { return [] }
        var balances = HTMLAllowlist.Balances<OpaquePointer>(imagesAsLinks: imagesAsLinks)
        for node in pieces {
            let block = cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK, parent = block ? nil : cmark_node_parent(node)
            let kept = balances.sanitize(cmark_node_get_literal(node).map { String(cString: $0) } ?? "",
                                         line: Int(cmark_node_get_start_line(node)), parent: parent, inLink: parent.map(isInLink) ?? false)
            guard let custom = cmark_node_new(block ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_CUSTOM_INLINE) else { continue }
            _ = cmark_node_set_on_enter(custom, kept)
            _ = cmark_node_insert_before(node, custom)
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
        let closing = balances.closeAll()
        for (parent, tags) in closing.inline + [(document, closing.blocks)] where !tags.isEmpty {
            guard let custom = cmark_node_new(parent == document ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_CUSTOM_INLINE) else { continue }
            _ = cmark_node_set_on_enter(custom, tags)
            _ = cmark_node_append_child(parent, custom)
        }
        return balances.dropped
    }

    private static func isInLink(_ node: OpaquePointer) -> Bool {
        var up: OpaquePointer? = node
        while let at = up, cmark_node_get_type(at) != CMARK_NODE_LINK { up = cmark_node_parent(at) }
        return up != nil
    }

    /// GitHub's alerts: a quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
    /// `[!WARNING]` or `[!CAUTION]` becomes a titled box, its first line taken out.
    package static let alertKinds = ["NOTE": "Note", "TIP": "Tip", "IMPORTANT": "Important", "WARNING": "Warning", "CAUTION": "Caution"]

    /// The document's nodes of one type, in order: collected before any is changed, since an
    /// iterator must not outlive a change to the tree.
    private static func nodes(_ type: cmark_node_type, in document: OpaquePointer) -> [OpaquePointer] {
        var found: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return [] }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == type {
                found.append(node)
            }
        }
        cmark_iter_free(iterator)
        return found
    }

    private static func markAlerts(_ document: OpaquePointer) {
        for quote in nodes(CMARK_NODE_BLOCK_QUOTE, in: document) {
            guard let paragraph = cmark_node_first_child(quote), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH else { continue }
            // The marker's text may come in pieces ("[", "!NOTE", "]"): read up to the first line's end.
            var marker = "", leading: [OpaquePointer] = []
            var next = cmark_node_first_child(paragraph)
            while let node = next, cmark_node_get_type(node) == CMARK_NODE_TEXT {
                marker += cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                leading.append(node)
                next = cmark_node_next(node)
            }
            let kind = marker.trimmingCharacters(in: .whitespaces)
            guard kind.hasPrefix("[!"), kind.hasSuffix("]"), let title = alertKinds[String(kind.dropFirst(2).dropLast()).uppercased()],
                  next == nil || [CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK].contains(cmark_node_get_type(next!)),
                  let box = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { continue }
            for node in leading + [next].compactMap({ $0 }) {
                cmark_node_unlink(node)
                cmark_node_free(node)
            }
            if cmark_node_first_child(paragraph) == nil {
                cmark_node_unlink(paragraph)
                cmark_node_free(paragraph)
            }
            let name = title.lowercased()
            _ = cmark_node_set_on_enter(box, "<div class=\"alert alert-\(name)\" role=\"note\">\n<p class=\"alert-title\">\(title)</p>")
            _ = cmark_node_set_on_exit(box, "</div>")
            while let child = cmark_node_first_child(quote) {
                cmark_node_unlink(child)
                _ = cmark_node_append_child(box, child)
            }
            _ = cmark_node_insert_before(quote, box)
            cmark_node_unlink(quote)
            cmark_node_free(quote)
        }
    }

    /// Definition lists as mdBook reads them: lines of terms, then each definition on a line
    /// of its own that starts with `: `, either right under the terms or after a blank line.
    /// Consecutive groups make one list. cmark-gfm reads these as paragraphs; they become
    /// `<dl>` of `<dt>` and `<dd>` here, their inline markup kept. Returns the paragraphs it
    /// emptied, unlinked: cmark-gfm's text nodes keep pointers into their paragraph's content,
    /// so the caller frees them after rendering.
    private static func markDefinitionLists(_ document: OpaquePointer) -> [OpaquePointer] {
        var lists = Set<OpaquePointer>()
        var emptiedParagraphs: [OpaquePointer] = []
        for paragraph in nodes(CMARK_NODE_PARAGRAPH, in: document) {
            let lines = Self.lines(of: paragraph)
            guard let firstDefinition = lines.firstIndex(where: { definitionMarker(of: $0.nodes) }) else { continue }
            var terms = Array(lines[..<firstDefinition])
            let previous = cmark_node_previous(paragraph)
            var list = previous.flatMap { lists.contains($0) ? $0 : nil }
            var termParagraph: OpaquePointer?
            if terms.isEmpty {
                // "Term", a blank line, then ": definition": the paragraph before holds the terms,
                // unless the list before goes on with another definition.
                if list == nil {
                    guard let previous, cmark_node_get_type(previous) == CMARK_NODE_PARAGRAPH else { continue }
                    let previousLines = Self.lines(of: previous)
                    guard !previousLines.contains(where: { definitionMarker(of: $0.nodes) }) else { continue }
                    terms = previousLines
                    termParagraph = previous
                    list = cmark_node_previous(previous).flatMap { lists.contains($0) ? $0 : nil }
                }
            }
            let made = list == nil
            guard let target = list ?? cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { continue }
            if made {
                _ = cmark_node_set_on_enter(target, "<dl>")
                _ = cmark_node_set_on_exit(target, "</dl>")
                _ = cmark_node_insert_before(termParagraph ?? paragraph, target)
                lists.insert(target)
            }
            for term in terms {
                append(term.nodes, to: target, as: "dt")
                term.end.map { cmark_node_unlink($0); cmark_node_free($0) }
            }
            appendDefinitions(Array(lines[firstDefinition...]), to: target)
            for emptied in [termParagraph, paragraph].compactMap({ $0 }) where cmark_node_first_child(emptied) == nil {
                cmark_node_unlink(emptied)
                emptiedParagraphs.append(emptied)
            }
        }
        return emptiedParagraphs
    }

    /// Each `: ` line as a `<dd>` of `list`; a line under a definition goes on with it, and
    /// the breaks between its lines stay, the others are freed.
    private static func appendDefinitions(_ lines: [(nodes: [OpaquePointer], end: OpaquePointer?)], to list: OpaquePointer) {
        var definition: OpaquePointer?
        for (number, line) in lines.enumerated() {
            if definitionMarker(of: line.nodes) {
                definition = append(dropMarker(line.nodes), to: list, as: "dd")
            } else if let definition {
                for node in line.nodes {
                    cmark_node_unlink(node)
                    _ = cmark_node_append_child(definition, node)
                }
            }
            guard let end = line.end else { continue }
            cmark_node_unlink(end)
            if let definition, number + 1 < lines.count, !definitionMarker(of: lines[number + 1].nodes) {
                _ = cmark_node_append_child(definition, end)
            } else {
                cmark_node_free(end)
            }
        }
    }

    /// A paragraph's inline nodes by line, each with the break that ends it.
    private static func lines(of paragraph: OpaquePointer) -> [(nodes: [OpaquePointer], end: OpaquePointer?)] {
        var lines: [(nodes: [OpaquePointer], end: OpaquePointer?)] = []
        var current: [OpaquePointer] = []
        var next = cmark_node_first_child(paragraph)
        while let node = next {
            next = cmark_node_next(node)
            if [CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK].contains(cmark_node_get_type(node)) {
                lines.append((current, node))
                current = []
            } else {
                current.append(node)
            }
        }
        if !current.isEmpty { lines.append((current, nil)) }
        return lines
    }

    /// The text a line starts with, across the pieces cmark-gfm cut it into (it cuts at `:`).
    private static func leadingText(_ nodes: [OpaquePointer]) -> String {
        var text = ""
        for node in nodes {
            guard cmark_node_get_type(node) == CMARK_NODE_TEXT else { break }
            text += cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            if text.count >= 2 { break }
        }
        return text
    }

    private static func definitionMarker(of nodes: [OpaquePointer]) -> Bool {
        let text = leadingText(nodes)
        return text.hasPrefix(": ") || text.hasPrefix(":\t")
    }

    /// Takes `: ` and the blanks after it off the line's first text; returns the nodes left.
    private static func dropMarker(_ nodes: [OpaquePointer]) -> [OpaquePointer] {
        var marker = true
        for (index, node) in nodes.enumerated() {
            guard cmark_node_get_type(node) == CMARK_NODE_TEXT else { return Array(nodes[index...]) }
            var literal = Substring(cmark_node_get_literal(node).map { String(cString: $0) } ?? "")
            if marker, literal.first == ":" {
                literal = literal.dropFirst()
                marker = false
            }
            literal = literal.drop { $0 == " " || $0 == "\t" }
            if literal.isEmpty {
                cmark_node_unlink(node)
                cmark_node_free(node)
                continue
            }
            _ = cmark_node_set_literal(node, String(literal))
            return Array(nodes[index...])
        }
        return []
    }

    /// Moves a line's nodes into a new `<dt>` or `<dd>` at the end of `list`.
    @discardableResult
    private static func append(_ nodes: [OpaquePointer], to list: OpaquePointer, as tag: String) -> OpaquePointer? {
        guard let item = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { return nil }
        _ = cmark_node_set_on_enter(item, "<\(tag)>")
        _ = cmark_node_set_on_exit(item, "</\(tag)>")
        _ = cmark_node_append_child(list, item)
        for node in nodes {
            cmark_node_unlink(node)
            _ = cmark_node_append_child(item, node)
        }
        return item
    }

    private static let anchor = Array("<a href=".utf8)
    private static let untrustedAnchor = Array("<a rel=\"nofollow ugc\" href=".utf8)

    private func html(_ document: OpaquePointer, parser: OpaquePointer, options: Int32, trust: Trust) -> String {
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else {
            return ""
        }
        defer { free(rendered) }
        var html = CodeHighlighter.highlight(html: Array(UnsafeBufferPointer(
            start: UnsafeRawPointer(rendered).assumingMemoryBound(to: UInt8.self), count: strlen(rendered))))
        if case .community = trust {
            html = HTMLAllowlist.imagesAsLinks(html)
            // Every anchor here came from a Markdown link or was written by `HTMLAllowlist`
            // (`<a href=` first): all of them are the visitor's.
            html = ByteSearch.replacing(Self.anchor, with: Self.untrustedAnchor, in: html)
        }
        return String(decoding: html, as: UTF8.self)
    }
}
