import Foundation
import Hummingbird
import Logging

/// The output folder as Hummingbird's `FileMiddleware` sees it. The middleware does the
/// HTTP (index pages, the folder redirect, HEAD, ranges, ETags, media types); this provider
/// adds what a preview needs on top of the plain local file system:
/// - nothing outside the output folder is served, even through a symlink, because the
///   middleware only refuses `..`;
/// - every HTML page carries the live-reload script;
/// - modification times keep their fractions of a second, so that a page rebuilt twice within
///   one second with the same size still gets a new ETag.
struct PreviewFiles: FileProvider {
    struct FileAttributes: FileMiddlewareFileAttributes, Sendable {
        let isFolder: Bool
        let size: Int
        let modificationDate: Date
    }

    /// The requested path under the output folder, not yet resolved: the output folder is
    /// swapped on every publish, so it is resolved on every use.
    typealias FileIdentifier = String

    let root: String
    private let local: LocalFileSystem

    init(root: String, logger: Logger) {
        self.root = root
        var quiet = logger
        quiet.logLevel = .warning
        local = LocalFileSystem(rootFolder: root, threadPool: .singleton, logger: quiet)
    }

    func getFileIdentifier(_ path: String) -> String? {
        guard !path.contains("\0"), !path.contains("\\") else { return nil }
        return root + (path.hasPrefix("/") ? path : "/" + path)
    }

    func getAttributes(id: String) async throws -> FileAttributes? {
        guard let real = contained(id),
              // A file gone or unreadable is served as not found.
              let attributes = try? FileManager.default.attributesOfItem(atPath: real),
              let modified = attributes[.modificationDate] as? Date,
              let size = (attributes[.size] as? NSNumber)?.intValue
        else { return nil }
        let isFolder = attributes[.type] as? FileAttributeType == .typeDirectory
        let added = !isFolder && Self.isPage(id) ? LiveReload.tag.count : 0
        return FileAttributes(isFolder: isFolder, size: size + added, modificationDate: modified)
    }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        guard let real = contained(id) else { throw HTTPError(.notFound) }
        guard Self.isPage(id) else { return try await local.loadFile(id: real, context: context) }
        return ResponseBody(byteBuffer: ByteBuffer(bytes: try page(real)))
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        guard let real = contained(id) else { throw HTTPError(.notFound) }
        guard Self.isPage(id) else { return try await local.loadFile(id: real, range: range, context: context) }
        let data = try page(real)
        let upper = min(range.upperBound, data.count - 1)
        guard range.lowerBound <= upper else { throw HTTPError(.rangeNotSatisfiable) }
        return ResponseBody(byteBuffer: ByteBuffer(bytes: data[range.lowerBound...upper]))
    }

    private func page(_ path: String) throws -> Data {
        LiveReload.inject(into: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The real path of `path` if it lies inside the output folder.
    func contained(_ path: String) -> String? {
        guard let base = Self.realPath(root), let real = Self.realPath(path),
              real == base || real.hasPrefix(base + "/") else { return nil }
        return real
    }

    static func isPage(_ path: String) -> Bool {
        path.hasSuffix(".html") || path.hasSuffix(".htm")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
