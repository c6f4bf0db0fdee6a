import Foundation

/// Finds every internal link and image in a built site that points at nothing.
struct LinkChecker {
    let root: String
    /// The base URL's path, for the absolute links of the 404 page.
    let basePath: String

    /// "page.html -> target" for each broken link.
    func brokenLinks() -> [String] {
        var broken: [String] = []
        for page in htmlFiles() {
            let html = Fixtures.read(root + "/" + page)
            for link in Self.links(in: html) where !resolves(link, from: page) {
                broken.append("\(page) -> \(link)")
            }
        }
        return broken
    }

    func htmlFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".html") { files.append(path) }
        }
        return files.sorted()
    }

    static func links(in html: String) -> [String] {
        var links: [String] = []
        for attribute in ["href=\"", "src=\""] {
            var rest = html[...]
            while let start = rest.range(of: attribute) {
                guard let end = rest[start.upperBound...].firstIndex(of: "\"") else { break }
                links.append(String(rest[start.upperBound..<end]))
                rest = rest[end...]
            }
        }
        return links
    }

    private func resolves(_ link: String, from page: String) -> Bool {
        if link.isEmpty || link.hasPrefix("#") || link.contains("://") || link.hasPrefix("mailto:")
            || link.hasPrefix("data:") {
            return true
        }
        var target = String(link.split(separator: "#", omittingEmptySubsequences: false)[0])
        target = String(target.split(separator: "?", omittingEmptySubsequences: false)[0])
        let path: String
        if target.hasPrefix("/") {
            guard target.hasPrefix(basePath) else { return false }
            path = String(target.dropFirst(basePath.count))
        } else {
            let directory = (page as NSString).deletingLastPathComponent
            path = ((directory.isEmpty ? target : directory + "/" + target) as NSString).standardizingPath
        }
        let full = root + "/" + (path.removingPercentEncoding ?? path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { return false }
        return !isDirectory.boolValue || FileManager.default.fileExists(atPath: full + "/index.html")
    }
}
