import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Rewrites an SVG layer so that opened on its own, at its own URL on the site, it can draw and
/// do nothing else. An SVG is a document: published byte for byte, its `<script>` ran on the
/// site's origin, fetched pages and sent them away, whatever `unsafe_html` said.
///
/// Kept: the elements that draw (shapes, text, gradients, patterns, clips, masks, markers,
/// filters, `use` of something in the same file) and their attributes. Dropped: every other
/// element with what it holds (`script`, `foreignObject`, `iframe`, animation, which can set
/// an `href`), event attributes (`on…`), references to anything outside the file (`href`
/// other than `#id` or an embedded raster image, `url(…)` other than `url(#id)`), and CSS
/// `@import`. A link (`<a>`) keeps its drawing and loses its target.
///
/// Hand-written: no SVG sanitiser is among the packages this project can use. It works on
/// the parsed document, never on the text, and writes every name and value escaped.
package enum SVGSanitizer {
    package struct Failure: Error {
        package let reason: String
    }

    /// Bumped whenever what is kept changes, so cached copies are made again.
    package static let version = "1"

    package static func sanitize(_ data: Data) throws(Failure) -> Data {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), builder.depth == 0, builder.sawRoot else {
            throw Failure(reason: "the SVG is not well-formed XML"
                          + (parser.parserError.map { ": \($0.localizedDescription)" } ?? ""))
        }
        guard builder.rootIsSVG else { throw Failure(reason: "the file's root element is not <svg>") }
        return Data(builder.output.utf8)
    }

    package static let elements: Set<String> = [
        "svg", "g", "defs", "symbol", "use", "switch", "title", "desc", "style",
        "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "image",
        "text", "tspan", "textPath",
        "linearGradient", "radialGradient", "stop", "pattern", "clipPath", "mask", "marker",
        "filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix",
        "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA",
        "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode",
        "feMorphology", "feOffset", "fePointLight", "feSpecularLighting", "feSpotLight", "feTile",
        "feTurbulence",
    ]

    /// Whether an attribute may stay on an element, as written.
    package static func keeps(_ name: String, _ value: String, on element: String) -> Bool {
        let lowered = name.lowercased()
        if lowered.hasPrefix("on") { return false }
        let compact = value.lowercased().filter { !$0.isWhitespace && $0 != "\0" }
        if compact.contains("javascript:") || compact.contains("vbscript:") { return false }
        if lowered == "href" || lowered.hasSuffix(":href") {
            if compact.hasPrefix("#") { return true }
            return (element == "image" || element == "feImage")
                && ["data:image/png", "data:image/jpeg", "data:image/webp", "data:image/gif"].contains { compact.hasPrefix($0) }
        }
        return !refersOutside(compact)
    }

    /// Whether CSS or an attribute value names something outside the file: `url(` other than
    /// `url(#…)`, or an `@import`.
    package static func refersOutside(_ compact: String) -> Bool {
        if compact.contains("@import") { return true }
        var rest = compact[...]
        while let found = rest.range(of: "url(") {
            rest = rest[found.upperBound...]
            let target = rest.drop { $0 == "\"" || $0 == "'" }
            if !target.hasPrefix("#") { return true }
        }
        return false
    }

    private final class Builder: NSObject, XMLParserDelegate {
        package var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        /// Open elements; nil for one dropped with its content, "" for a link whose drawing stays.
        private var stack: [String?] = []
        package var depth: Int { stack.count }
        package var sawRoot = false
        package var rootIsSVG = false
        private var dropping: Int { stack.firstIndex { $0 == nil }.map { stack.count - $0 } ?? 0 }

        package func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            defer { sawRoot = true }
            if stack.isEmpty, !sawRoot { rootIsSVG = name == "svg" }
            if dropping > 0 || (stack.isEmpty && name != "svg") {
                stack.append(nil)
                return
            }
            if name == "a" {
                stack.append("")
                return
            }
            guard SVGSanitizer.elements.contains(name) else {
                stack.append(nil)
                return
            }
            stack.append(name)
            output += "<" + name
            // The root declares the two namespaces kept; other prefixes (an editor's own) go
            // with their attributes.
            if stack.count == 1 { output += " xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"" }
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) where SVGSanitizer.keeps(key, value, on: name) {
                let prefix = key.split(separator: ":").count > 1 ? String(key.split(separator: ":")[0]) : ""
                guard key != "xmlns", prefix.isEmpty || prefix == "xlink" || prefix == "xml" else { continue }
                output += " " + key + "=\"" + Self.escape(value) + "\""
            }
            output += ">"
        }

        package func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let last = stack.popLast() else { return }
            if let last, !last.isEmpty { output += "</" + last + ">" }
        }

        package func parser(_ parser: XMLParser, foundCharacters string: String) { text(string) }

        package func parser(_ parser: XMLParser, foundCDATA block: Data) { text(String(decoding: block, as: UTF8.self)) }

        private func text(_ string: String) {
            guard dropping == 0, !stack.isEmpty else { return }
            if stack.last == "style", SVGSanitizer.refersOutside(string.lowercased().filter { !$0.isWhitespace }) { return }
            output += Self.escape(string)
        }

        package static func escape(_ text: String) -> String {
            var escaped = ""
            escaped.reserveCapacity(text.utf8.count)
            for character in text {
                switch character {
                case "&": escaped += "&amp;"
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "\"": escaped += "&quot;"
                default: escaped.append(character)
                }
            }
            return escaped
        }
    }
}
