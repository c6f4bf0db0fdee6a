import Foundation

/// Rewrites links between manual Markdown files (`bundles.md#layers`) to the rendered
/// pages, so a manual reads the same in a file browser and on the site.
enum ManualLinks {
    static func rewrite(_ html: String, from page: ManualPage, at url: URLPath) -> String {
        guard html.contains(".md") else { return html }
        var result = ""
        var rest = html[...]
        while let start = rest.range(of: "href=\"") {
            result += rest[..<start.upperBound]
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            result += target(String(rest[..<end]), from: page, at: url)
            rest = rest[end...]
        }
        return result + rest
    }

    private static func target(_ link: String, from page: ManualPage, at url: URLPath) -> String {
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        guard path.hasSuffix(".md"), !path.contains(":"), !path.hasPrefix("/") else { return link }
        let directory = (page.slug as NSString).deletingLastPathComponent
        let resolved = ((directory.isEmpty ? path : directory + "/" + path) as NSString).standardizingPath
        guard !resolved.hasPrefix("..") else { return link }
        let slug = String(resolved.dropLast(3))
        let fragment = parts.count > 1 ? "#" + parts[1] : ""
        return Routes.manual(slug: slug).relative(from: url) + fragment
    }
}
