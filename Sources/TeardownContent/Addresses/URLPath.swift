/// A path on the published site, always starting with "/" ("/machines/pc/"), independent of
/// where the site is hosted. Links are written relative to the page that holds them, so a site
/// works under any sub-path of its base URL and from a plain folder.
public struct URLPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let value: String

    public init(_ value: String) {
        self.value = value.hasPrefix("/") ? value : "/" + value
    }

    public static let root = URLPath("/")

    /// A folder-style page URL: "/a/b/" for components ["a", "b"].
    public static func page(_ components: String...) -> URLPath { page(components) }

    public static func page(_ components: [String]) -> URLPath {
        let joined = components.map(Self.escape).joined(separator: "/")
        return URLPath(joined.isEmpty ? "/" : "/" + joined + "/")
    }

    /// A file URL: "/a/b.css".
    public static func file(_ components: [String]) -> URLPath {
        URLPath("/" + components.map(Self.escape).joined(separator: "/"))
    }

    /// The file in the output tree that serves this URL ("machines/pc/index.html").
    public var outputPath: String {
        let trimmed = String(value.dropFirst())
        // Foundation's decoding showed in a one-comment rebuild's profile; most paths hold no escape.
        let decoded = trimmed.utf8.contains(UInt8(ascii: "%")) ? trimmed.removingPercentEncoding ?? trimmed : trimmed
        if decoded.isEmpty { return "index.html" }
        return decoded.hasSuffix("/") ? decoded + "index.html" : decoded
    }

    /// This URL written relative to the page at `base`, e.g. "../../assets/style.css".
    ///
    /// Every link of every page goes through here. Splitting both paths into components showed
    /// in builds' profiles, so it walks their bytes once instead: the folders they share
    /// end at the last "/" of their common prefix, and each "/" of the page's path after it is
    /// one folder to climb out of.
    public func relative(from base: URLPath) -> String {
        let target = value.utf8, page = base.value.utf8
        var shared = (target: target.startIndex, page: page.startIndex)
        var t = target.startIndex, p = page.startIndex
        while t != target.endIndex, p != page.endIndex, target[t] == page[p] {
            if target[t] == UInt8(ascii: "/") { shared = (t, p) }
            t = target.index(after: t)
            p = page.index(after: p)
        }
        var climbs = 0
        p = page.index(after: shared.page)
        while p != page.endIndex {
            if page[p] == UInt8(ascii: "/") { climbs += 1 }
            p = page.index(after: p)
        }
        let rest = Substring(target[target.index(after: shared.target)...])
        if climbs == 0 { return rest.isEmpty ? "./" : String(rest) }
        return String(repeating: "../", count: climbs) + rest
    }

    public static func < (lhs: URLPath, rhs: URLPath) -> Bool { lhs.value < rhs.value }

    public var description: String { value }

    private static func escape(_ component: String) -> String {
        // Slugs are almost always plain ASCII; Foundation's encoder is slow enough to show in builds.
        let plain = component.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
        if plain { return component }
        return component.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/?#"))) ?? component
    }
}
