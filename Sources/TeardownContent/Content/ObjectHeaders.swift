import Foundation

/// The Content-Type, Cache-Control and Content-Encoding an output is stored with. Teardown
/// writes a known set of file kinds, so the table is its own rather than a system's MIME list.
public struct ObjectHeaders: Sendable, Equatable {
    /// For files whose names carry their content's digest (the search index's shards):
    /// they never change under the same name.
    public var immutable = "public, max-age=31536000, immutable"
    /// For pages, feeds, the catalog's JSON and the comments' downloads: what a sync changes,
    /// so visitors ask again soon.
    public var pages = "public, max-age=60"
    /// For the rest: images, styles, scripts, downloads.
    public var assets = "public, max-age=3600"
    /// Text (pages, styles, scripts, feeds, JSON, SVG) is stored gzip-compressed, a quarter of
    /// its size, because a bucket sends objects as they are stored: a visitor on a phone waited
    /// for uncompressed scripts before the search page could start (`deploy: compress:`).
    public var compress = true

    public init() {}

    package static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json", "xml": "application/xml",
        "atom": "application/atom+xml", "txt": "text/plain; charset=utf-8", "svg": "image/svg+xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif",
        "avif": "image/avif", "ico": "image/x-icon", "woff2": "font/woff2", "woff": "font/woff",
        "wasm": "application/wasm", "zip": "application/zip", "pdf": "application/pdf",
    ]

    package static func contentType(of path: String) -> String {
        types[Self.extension(of: path)] ?? "application/octet-stream"
    }

    /// "gzip" for the text kinds when `compress` is on. Pagefind's index files and the images are
    /// compressed already.
    package func contentEncoding(of path: String) -> String? {
        compress && Self.text.contains(Self.extension(of: path)) ? "gzip" : nil
    }

    package static let text: Set<String> = ["html", "css", "js", "mjs", "json", "xml", "atom", "txt", "svg"]

    /// Pages and the documents that point at other files go up after those files.
    package static func isPage(_ path: String) -> Bool {
        ["html", "xml", "json", "txt", "atom"].contains(Self.extension(of: path))
    }

    /// Pagefind names its index shards by their content: `en_3f9a2c1.pf_fragment`.
    package static func isContentAddressed(_ path: String) -> Bool {
        ["pf_fragment", "pf_index", "pf_meta"].contains(Self.extension(of: path))
    }

    private static func `extension`(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
