import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TeardownBase
import TeardownBuild

/// `teardown serve`: builds the site, serves the output folder on loopback, rebuilds
/// incrementally when content/ or Themes/ change, and reloads open pages.
public struct PreviewServer: Sendable {
    public enum Event: Sendable {
        case built(SiteBuilder.Report, seconds: Double)
        /// `servesEarlier`: an earlier build is in the output, and is what the browser shows.
        case failed(BuildFailure, servesEarlier: Bool)
        case watching(polling: String?)
        case listening(url: String)
    }

    public let siteRoot: String
    public let output: String?
    public let host: String
    public let port: Int
    public let forcePolling: Bool
    /// Where the web server's own messages go: the caller decides how they look.
    public let logger: Logger
    private let onEvent: @Sendable (Event) -> Void

    public init(siteRoot: String, output: String? = nil, host: String = "127.0.0.1", port: Int = 8080,
                forcePolling: Bool = false, logger: Logger = Logger(label: "teardown-serve"), onEvent: @escaping @Sendable (Event) -> Void) {
        self.siteRoot = siteRoot
        self.output = output
        self.host = host
        self.port = port
        self.forcePolling = forcePolling
        self.logger = logger
        self.onEvent = onEvent
    }

    public func run() async throws {
        let live = LiveReload()
        // The preview has a folder of its own, not public/: built for another base URL, it
        // would make the next `teardown build` or `sync` of public/ (and the deploy after it)
        // render every page again, and a deploy meanwhile would publish the preview's links.
        let builder = SiteBuilder(siteRoot: siteRoot, output: output ?? SiteBuilder.previewOutput(siteRoot: siteRoot),
                                  baseURL: "http://\(host):\(port)/")
        let scheduler = RebuildScheduler(builder: builder, live: live, onEvent: onEvent)
        scheduler.rebuild()
        let watcher = ChangeWatcher(folders: [siteRoot + "/content", siteRoot + "/Themes"], forcePolling: forcePolling) { paths in
            scheduler.request(paths)
        }
        if case .polling(let reason) = watcher.mode { onEvent(.watching(polling: reason)) } else { onEvent(.watching(polling: nil)) }

        let router = Self.router(files: PreviewFiles(root: builder.output, logger: logger), live: live)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "teardown"),
            onServerRunning: { [onEvent, host, port] _ in onEvent(.listening(url: "http://\(host):\(port)/")) },
            logger: logger
        )
        try await app.runService()
        _ = watcher
    }

    /// The preview's routes: live reload's script and events, then the output folder through
    /// Hummingbird's `FileMiddleware`, then the site's own 404 page.
    static func router(files: PreviewFiles, live: LiveReload) -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.middlewares.add(PreviewResponses(files: files))
        router.middlewares.add(
            FileMiddleware(fileProvider: files, searchForIndexHtml: true)
                .withAdditionalMediaTypes(forFileExtensions: [
                    "html": MediaType(type: .text, subType: "html", parameter: ("charset", "utf-8")),
                    "css": MediaType(type: .text, subType: "css", parameter: ("charset", "utf-8")),
                    "js": MediaType(type: .text, subType: "javascript", parameter: ("charset", "utf-8")),
                    "atom": MediaType(type: .application, subType: "atom+xml"),
                ]))
        router.get("/__teardown/live.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(string: LiveReload.script)))
        }
        router.get("/__teardown/events") { _, _ in
            let (id, stream) = await live.subscribe()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: .init { writer in
                    defer { Task { await live.unsubscribe(id) } }
                    try await writer.write(ByteBuffer(string: ": connected\n\n"))
                    // The stream ends when the server is asked to stop (Ctrl-C, SIGTERM): graceful
                    // shutdown waits for every open request, and an open page's stream never ends.
                    for await event in stream.cancelOnGracefulShutdown() {
                        try await writer.write(ByteBuffer(string: event))
                    }
                    try await writer.finish(nil)
                })
        }
        return router
    }
}

/// Nothing the preview serves is cached without asking again, whatever its extension
/// (`FileMiddleware`'s cache rules know only registered media types), and a path that is
/// neither a route nor a file gets the site's own 404 page, with its status.
struct PreviewResponses<Context: RequestContext>: RouterMiddleware {
    let files: PreviewFiles

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            response.headers[.cacheControl] = "no-cache"
            return response
        } catch let error as any HTTPResponseError where error.status == .notFound {
            let headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"]
            guard let page = files.contained(files.root + "/404.html"),
                  // With no readable 404 page, the plain answer below is the page.
                  let data = try? Data(contentsOf: URL(fileURLWithPath: page)) else {
                // Before any build has made the site (the first one failed, or is running), a
                // page that shows the build's errors as they come, and reloads once it builds.
                if files.contained(files.root + "/index.html") == nil {
                    let page = LiveReload.inject(into: LiveReload.nothingBuilt)
                    return Response(status: .serviceUnavailable, headers: headers,
                                    body: request.method == .head ? ResponseBody() : .init(byteBuffer: ByteBuffer(bytes: page)))
                }
                return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "Not found\n")))
            }
            let body = request.method == .head ? ResponseBody() : .init(byteBuffer: ByteBuffer(bytes: LiveReload.inject(into: data)))
            return Response(status: .notFound, headers: headers, body: body)
        }
    }
}

extension LiveReload {
    static let tag = Data("<script src=\"/__teardown/live.js\"></script>".utf8)

    /// What the preview shows while the output holds no site yet.
    static let nothingBuilt = Data("""
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Nothing is built yet</title></head>
        <body id="teardown-nothing-built"><h1>Nothing is built yet</h1>
        <p>The site has not been built: its errors show here, and the page reloads once it builds.</p></body></html>
        """.utf8)

    /// Adds the live-reload script before </body>, or at the end of a page without one.
    static func inject(into page: Data) -> Data {
        guard let range = page.range(of: Data("</body>".utf8), options: .backwards) else { return page + tag }
        var result = page
        result.replaceSubrange(range.lowerBound..<range.lowerBound, with: tag)
        return result
    }
}

/// Runs one build at a time; changes that arrive during a build cause one more build after it.
final class RebuildScheduler: @unchecked Sendable {
    private let builder: SiteBuilder
    private let live: LiveReload
    private let onEvent: @Sendable (PreviewServer.Event) -> Void
    private let queue = DispatchQueue(label: "teardown-rebuild")
    private let lock = NSLock()
    private var pending = false
    /// Paths changed since the last build that succeeded, which the next build looks at
    /// instead of walking the site; `walk` when some change's paths are not known.
    private var changed = Set<String>()
    private var walk = false
    /// Whether the last build failed: then even an unchanged build must reload the pages.
    private var failedBefore = false

    init(builder: SiteBuilder, live: LiveReload, onEvent: @escaping @Sendable (PreviewServer.Event) -> Void) {
        self.builder = builder
        self.live = live
        self.onEvent = onEvent
    }

    func request(_ paths: [String]?) {
        lock.lock()
        defer { lock.unlock() }
        if let paths { changed.formUnion(paths) } else { walk = true }
        guard !pending else { return }
        pending = true
        // Editors write a file in several steps; a short pause lets them finish.
        queue.asyncAfter(deadline: .now() + .milliseconds(40)) { [self] in
            lock.lock()
            pending = false
            let paths = walk ? nil : Array(changed)
            changed = []
            walk = false
            lock.unlock()
            rebuild(changed: paths)
        }
    }

    /// Builds; `changed` nil walks the site.
    func rebuild(changed paths: [String]? = nil) {
        let start = Date()
        do {
            let report = try builder.build(changed: paths)
            onEvent(.built(report, seconds: Date().timeIntervalSince(start)))
            let warnings = report.warnings.map(\.description).joined(separator: "\n")
            let changed = !report.unchanged || failedBefore
            Task { await live.built(warnings: warnings, changed: changed) }
            failedBefore = false
        } catch {
            onEvent(.failed(error, servesEarlier: FileManager.default.fileExists(atPath: builder.output + "/index.html")))
            failedBefore = true
            // A failed build stores no snapshot, so the changes it saw are unaccounted for: walk next time.
            lock.lock()
            walk = true
            lock.unlock()
            let text = error.diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "\n")
            Task { await live.failed(text) }
        }
    }
}
