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
        let decoded = trimmed.removingPercentEncoding ?? trimmed
        if decoded.isEmpty { return "index.html" }
        return decoded.hasSuffix("/") ? decoded + "index.html" : decoded
    }

    /// This URL written relative to the page at `base`, e.g. "../../assets/style.css".
    public func relative(from base: URLPath) -> String {
        let baseDirectory = base.value.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let target = value.split(separator: "/", omittingEmptySubsequences: false)
        var common = 0
        while common < baseDirectory.count, common < target.count - 1, baseDirectory[common] == target[common] {
            common += 1
        }
        let result = String(repeating: "../", count: baseDirectory.count - common)
            + target[common...].joined(separator: "/")
        return result.isEmpty ? "./" : result
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
