import Foundation

/// Maps request paths to files of the output folder, and never to anything outside it:
/// `..` segments (also percent-encoded) are refused and symlinks are resolved before the check.
struct StaticFiles: Sendable {
    enum Resolution: Equatable {
        case file(String)
        /// A folder asked for without its trailing slash: the browser must come back with one,
        /// or relative links on the page would resolve one level too high.
        case redirect(String)
        case notFound
    }

    let root: String

    func resolve(_ rawPath: String) -> Resolution {
        let pathOnly = rawPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard let decoded = pathOnly.removingPercentEncoding, decoded.hasPrefix("/"), !decoded.contains("\0") else {
            return .notFound
        }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." || $0.contains("\\") }) else { return .notFound }
        // The output folder is swapped on every publish, so its real path is looked up per request.
        guard let base = Self.realPath(root) else { return .notFound }
        let candidate = ([base] + segments.map(String.init)).joined(separator: "/")
        guard let real = Self.realPath(candidate), real == base || real.hasPrefix(base + "/") else { return .notFound }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory) else { return .notFound }
        if isDirectory.boolValue {
            guard decoded.hasSuffix("/") else { return .redirect(pathOnly + "/") }
            let index = real + "/index.html"
            return FileManager.default.fileExists(atPath: index) ? .file(index) : .notFound
        }
        return .file(real)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func mediaType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "xml": "application/xml"
        case "txt", "md": "text/plain; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "avif": "image/avif"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "wasm": "application/wasm"
        case "zip": "application/zip"
        case "pdf": "application/pdf"
        case "atom": "application/atom+xml"
        default: "application/octet-stream"
        }
    }
}
