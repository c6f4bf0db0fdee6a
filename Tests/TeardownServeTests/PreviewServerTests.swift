import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import TeardownServe

@Suite("Serving the output folder")
struct PreviewServerTests {
    static let script = "<script src=\"/__teardown/live.js\"></script>"

    /// An output folder with a page, a stylesheet, a 404 page, and a secret beside it
    /// reachable by a symlink; the app serves it over a real socket on loopback.
    static func makeApp() throws -> (root: String, app: some ApplicationProtocol) {
        let base = NSTemporaryDirectory() + "teardown-serve-" + UUID().uuidString
        let root = base + "/public"
        try FileManager.default.createDirectory(atPath: root + "/machines/box", withIntermediateDirectories: true)
        try "<html><body>Box</body></html>".write(toFile: root + "/machines/box/index.html", atomically: true, encoding: .utf8)
        try "<html><body>Lost</body></html>".write(toFile: root + "/404.html", atomically: true, encoding: .utf8)
        try "body{}".write(toFile: root + "/style.css", atomically: true, encoding: .utf8)
        try "index".write(toFile: root + "/search.pf_meta", atomically: true, encoding: .utf8)
        try "secret".write(toFile: base + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/out", withDestinationPath: base)
        try FileManager.default.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: base + "/secret.txt")
        let files = PreviewFiles(root: root, logger: Logger(label: "test"))
        let router = PreviewServer.router(files: files, live: LiveReload())
        return (root, Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))))
    }

    @Test("A page comes with the live-reload script before </body>, and its length counts it")
    func pages() async throws {
        let (_, app) = try Self.makeApp()
        try await app.test(.live) { client in
            try await client.execute(uri: "/machines/box/", method: .get) { response in
                let body = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(body == "<html><body>Box\(Self.script)</body></html>")
                #expect(response.headers[.contentLength] == String(body.utf8.count))
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
            }
            try await client.execute(uri: "/machines/box", method: .get) { response in
                #expect(response.status == .movedPermanently)
                #expect(response.headers[.location] == "/machines/box/")
            }
            try await client.execute(uri: "/style.css?v=2", method: .get) { response in
                #expect(String(buffer: response.body) == "body{}")
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
            }
            try await client.execute(uri: "/search.pf_meta", method: .get) { response in
                #expect(String(buffer: response.body) == "index")
                #expect(response.headers[.cacheControl] == "no-cache")
            }
        }
    }

    @Test("HEAD answers like GET without a body; a page asked again by its ETag is not sent again")
    func headAndRevalidation() async throws {
        let (_, app) = try Self.makeApp()
        try await app.test(.live) { client in
            let etag = try await client.execute(uri: "/machines/box/", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == String("<html><body>Box\(Self.script)</body></html>".utf8.count))
                return response.headers[.eTag]
            }
            try await client.execute(uri: "/machines/box/", method: .get, headers: [.ifNoneMatch: try #require(etag)]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: "/__teardown/live.js", method: .head) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("A page rebuilt within the same second with the same size gets a new ETag")
    func rebuiltPage() async throws {
        let (root, app) = try Self.makeApp()
        try await app.test(.live) { client in
            let first = try await client.execute(uri: "/machines/box/", method: .get) { $0.headers[.eTag] }
            try "<html><body>Bot</body></html>".write(toFile: root + "/machines/box/index.html", atomically: true, encoding: .utf8)
            try await client.execute(uri: "/machines/box/", method: .get, headers: [.ifNoneMatch: try #require(first)]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("Bot"))
            }
        }
    }

    @Test("A missing path gets the site's 404 page with status 404")
    func notFound() async throws {
        let (_, app) = try Self.makeApp()
        try await app.test(.live) { client in
            try await client.execute(uri: "/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body) == "<html><body>Lost\(Self.script)</body></html>")
            }
        }
    }

    @Test("Before anything is built, every path gets a page that waits for the build and shows its errors")
    func nothingBuilt() async throws {
        let root = NSTemporaryDirectory() + "teardown-serve-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let router = PreviewServer.router(files: PreviewFiles(root: root, logger: Logger(label: "test")), live: LiveReload())
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            for path in ["/", "/machines/box/"] {
                try await client.execute(uri: path, method: .get) { response in
                    let body = String(buffer: response.body)
                    #expect(response.status == .serviceUnavailable)
                    #expect(body.contains("Nothing is built yet") && body.contains(Self.script), "\(body)")
                }
            }
            // The overlay the script draws says there is no earlier build under it.
            try await client.execute(uri: "/__teardown/live.js", method: .get) { response in
                #expect(String(buffer: response.body).contains("nothing is built yet"))
            }
        }
    }

    @Test("Nothing outside the output folder is served", arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/machines/%2e%2e/%2e%2e/secret.txt",
        "/out/secret.txt", "/leak.txt", "/..%2fsecret.txt", "/%00", "/machines%5C..%5C..%5Csecret.txt",
    ])
    func escapes(_ path: String) async throws {
        let (_, app) = try Self.makeApp()
        try await app.test(.live) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect([.notFound, .badRequest].contains(response.status))
                #expect(!String(buffer: response.body).contains("secret"))
            }
        }
    }
}
