import Foundation
import Testing
@testable import TeardownServe

@Suite("Serving the output folder")
struct StaticFilesTests {
    /// An output folder with a page, a stylesheet, and a secret beside it reachable by a symlink.
    static func makeSite() throws -> (root: String, files: StaticFiles) {
        let base = NSTemporaryDirectory() + "teardown-serve-" + UUID().uuidString
        let root = base + "/public"
        try FileManager.default.createDirectory(atPath: root + "/machines/box", withIntermediateDirectories: true)
        try "<html><body>Box</body></html>".write(toFile: root + "/machines/box/index.html", atomically: true, encoding: .utf8)
        try "body{}".write(toFile: root + "/style.css", atomically: true, encoding: .utf8)
        try "secret".write(toFile: base + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/out", withDestinationPath: base)
        try FileManager.default.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: base + "/secret.txt")
        return (root, StaticFiles(root: root))
    }

    @Test("Pages resolve to their index.html; a folder without its slash redirects")
    func pages() throws {
        let (root, files) = try Self.makeSite()
        let real = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        #expect(files.resolve("/machines/box/") == .file(real + "/machines/box/index.html"))
        #expect(files.resolve("/machines/box") == .redirect("/machines/box/"))
        #expect(files.resolve("/style.css?v=2") == .file(real + "/style.css"))
        #expect(files.resolve("/nothing-here") == .notFound)
    }

    @Test("Nothing outside the output folder is served", arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/machines/%2e%2e/%2e%2e/secret.txt",
        "/out/secret.txt", "/leak.txt", "/..%2fsecret.txt", "/%00", "/machines\\..\\..\\secret.txt",
    ])
    func escapes(_ path: String) throws {
        let (_, files) = try Self.makeSite()
        #expect(files.resolve(path) == .notFound)
    }

    @Test("Media types follow the extension")
    func mediaTypes() {
        #expect(StaticFiles.mediaType(of: "a/index.html") == "text/html; charset=utf-8")
        #expect(StaticFiles.mediaType(of: "style.css") == "text/css; charset=utf-8")
        #expect(StaticFiles.mediaType(of: "layer.svg") == "image/svg+xml")
        #expect(StaticFiles.mediaType(of: "photo.JPG") == "image/jpeg")
        #expect(StaticFiles.mediaType(of: "photo.webp") == "image/webp")
        #expect(StaticFiles.mediaType(of: "catalog.json") == "application/json")
        #expect(StaticFiles.mediaType(of: "pagefind.wasm") == "application/wasm")
    }

    @Test("The live-reload script goes before </body>")
    func injection() {
        let page = Data("<html><body><p>Hi</p></body></html>".utf8)
        let result = String(decoding: LiveReload.inject(into: page), as: UTF8.self)
        #expect(result == "<html><body><p>Hi</p><script src=\"/__teardown/live.js\"></script></body></html>")
    }
}
