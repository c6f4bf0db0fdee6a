import CCmarkGFM
import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Renders Markdown to HTML with the system cmark-gfm. All C pointers of cmark stay in this file.
public struct MarkdownRenderer: Sendable {
    /// Who wrote the text decides what it may contain.
    public enum Trust: Sendable {
        /// Visitors: never raw HTML; `javascript:`, `vbscript:`, `file:` and non-image `data:` links
        /// lose their target; links are marked `nofollow ugc`.
        case community
        /// Designers and manual authors: raw HTML only when the site opts in with `unsafe_html: true`.
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

    public func render(_ markdown: String, trust: Trust) -> String {
        var options = CMARK_OPT_FOOTNOTES | CMARK_OPT_SMART | CMARK_OPT_GITHUB_PRE_LANG
        if case .designer(allowHTML: true) = trust {
            options |= CMARK_OPT_UNSAFE
        }
        guard let parser = cmark_parser_new(options) else { return "" }
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
        guard let document = finished else { return "" }
        defer { cmark_node_free(document) }
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else {
            return ""
        }
        defer { free(rendered) }
        let html = String(cString: rendered)
        if case .community = trust {
            // Safe mode omits raw HTML, so every anchor here came from a Markdown link.
            return html.replacingOccurrences(of: "<a href=", with: "<a rel=\"nofollow ugc\" href=")
        }
        return html
    }
}
