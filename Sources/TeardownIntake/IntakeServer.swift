import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TeardownBase
import TeardownInbox

/// `teardown intake`: takes comments and photos from the site's forms and from a JSON API
/// (described by `/api/v1/openapi.json`), writes them into an inbox, and serves that inbox to
/// `teardown sync` holders of its token.
public struct IntakeServer: Sendable {
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = 8081
        /// What `teardown sync` must send as its bearer token to read the inbox.
        public var token: String
        /// Submissions an address may make a minute.
        public var perMinute = 10
        /// Where the site's pages are served; links back from the thank-you page must start with it.
        public var siteURL: String
        /// Requests come through a reverse proxy (for TLS, say), which names the client in the last
        /// X-Forwarded-For entry; otherwise every visitor would share the proxy's allowance.
        public var behindProxy = false
        /// Seconds a connection may sit without a request before it is closed.
        public var idleTimeout = 30
        /// Seconds a sender has to deliver a request's body.
        public var bodyTimeout = 60
        /// Connections one address may hold open at once.
        public var connectionsPerAddress = 16
        /// Where the operator keeps the inbox's token, for the line that tells them how sync reads the inbox.
        public var tokenSource = "the inbox's .token file"
        /// What sync reads instead of this service's `/inbox/`: a bucket inbox, say.
        public var syncReads: String?

        public init(token: String, siteURL: String) {
            self.token = token
            self.siteURL = siteURL
        }
    }

    public let desk: IntakeDesk
    public let settings: Settings
    private let limiter: RateLimiter
    /// Where the service's events and the web server's own lines go, as one channel: the caller
    /// decides how they look.
    public let logger: Logger

    public init(desk: IntakeDesk, settings: Settings, logger: Logger = Logger(label: "teardown-intake")) {
        self.desk = desk
        self.settings = settings
        self.logger = logger
        limiter = RateLimiter(perMinute: settings.perMinute)
    }

    public func run() async throws {
        try await application().runService()
    }

    func application() -> some ApplicationProtocol {
        let counts = ConnectionCap.Counts(limit: settings.connectionsPerAddress)
        let logger = logger
        // Behind a proxy every connection is the proxy's: the cap counts the clients it names,
        // request by request (`ForwardedClientCap`), not the proxy as one visitor.
        let capped = !settings.behindProxy
        return Application(
            router: router(),
            // An idle connection (one that never finishes its request's head, too) is closed,
            // and one address holds only so many: a few thousand idle sockets used to take the
            // service off the air.
            server: .http1(configuration: .init(
                additionalChannelHandlers: capped ? [ConnectionCap(counts: counts) { address in
                    IntakeEvent.refused(reason: "\(address) holds \(counts.limit) connections already").log(to: logger)
                }] : [],
                idleTimeout: .seconds(Int64(settings.idleTimeout)),
                httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 << 10, maxHeaderListSize: 32 << 10, maxHeaderFieldCount: 100))),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "teardown-intake"),
            onServerRunning: { [desk, settings] _ in
                IntakeEvent.listening(url: "http://\(settings.host):\(settings.port)/", inbox: desk.inbox.name,
                                      held: desk.config.moderation, tokenSource: settings.tokenSource,
                                      syncReads: settings.syncReads).log(to: logger)
            },
            logger: logger
        )
    }

    func router() -> Router<IntakeContext> {
        let router = Router(context: IntakeContext.self)
        // Pages on another origin post with script; no cookies are involved, so any origin may.
        router.add(middleware: CORSMiddleware(allowOrigin: .all, allowHeaders: [.accept, .contentType],
                                              allowMethods: [.get, .post, .options]))
        if settings.behindProxy {
            let counts = ConnectionCap.Counts(limit: settings.connectionsPerAddress)
            router.add(middleware: ForwardedClientCap(counts: counts, client: { [self] in address($0, $1) }) { [logger] client in
                IntakeEvent.refused(reason: "\(client) holds \(counts.limit) requests already").log(to: logger)
            })
        }
        router.get("/") { _, _ in
            html(.ok, IntakePages.notice("Teardown intake", "This service takes comments and photos for \(desk.config.title). "
                                             + "Its API is described at /api/v1/openapi.json.", siteTitle: desk.config.title))
        }
        router.get("/health") { _, _ in text(.ok, "ok\n") }
        router.get("/api/v1/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        router.get("/thanks") { request, _ in
            let query = request.uri.queryParameters
            return html(.ok, IntakePages.thanks(siteTitle: desk.config.title, back: back(query["back"].map(String.init)),
                                                held: query["held"] == "1"))
        }
        router.post("/forms/comment") { request, context in await comment(request, context, api: false) }
        router.post("/api/v1/comments") { request, context in await comment(request, context, api: true) }
        router.post("/forms/photo") { request, context in await photo(request, context, api: false) }
        router.post("/api/v1/photos") { request, context in await photo(request, context, api: true) }
        router.group("inbox").add(middleware: InboxToken(token: settings.token)).get(":file") { request, context in
            let name = context.parameters.get("file") ?? ""
            let query = request.uri.queryParameters
            if name == "manifest.json", let since = query["since"], let wait = query["wait"].flatMap({ Double(String($0)) }) {
                await manifestChange(since: String(since), seconds: min(max(wait, 0), Self.longestWait))
            }
            return inboxFile(name)
        }
        return router
    }

    // MARK: Submissions

    private func comment(_ request: Request, _ context: IntakeContext, api: Bool) async -> Response {
        let sender = address(request, context)
        if let wait = limiter.take(sender) { return limited(wait, sender: sender, request: request, api: api) }
        let fields: [String: String]
        do {
            let maxBytes = max(64 << 10, desk.config.limits.commentMax * 8)
            fields = try await FormBody.within(settings.bodyTimeout) { try await FormBody.fields(of: request, maxBytes: maxBytes) }
        } catch {
            return failure(error, request: request, api: api, fields: [:], action: "comment")
        }
        if isTrap(fields) { return trapped(request: request, api: api, fields: fields) }
        guard let machine = fields["machine"], let author = fields["author"], let body = fields["body"] else {
            return failure(FormProblem(.badRequest, "machine, author and body are required"), request: request, api: api,
                           fields: fields, action: "comment")
        }
        let form = CommentForm(machine: machine, part: nonEmpty(fields["part"]), author: author, body: body)
        return respond(await desk.submit(form), request: request, api: api, fields: fields, action: "comment")
    }

    private func photo(_ request: Request, _ context: IntakeContext, api: Bool) async -> Response {
        let sender = address(request, context)
        if let wait = limiter.take(sender) { return limited(wait, sender: sender, request: request, api: api) }
        let upload: IntakeUpload
        do {
            upload = try desk.beginPhoto()
        } catch {
            return failure(FormProblem(.serviceUnavailable, IntakeDesk.unstored), request: request, api: api, fields: [:],
                           action: "photo")
        }
        let file = IntakeDesk.imageUploadName(upload)
        let fields: [String: String]
        do {
            let maxFileBytes = desk.config.limits.photoMaxBytes
            fields = try await FormBody.within(settings.bodyTimeout) {
                try await FormBody.receive(request, into: upload, file: file, api: api, maxFileBytes: maxFileBytes)
            }
        } catch {
            desk.discard(upload)
            return failure(error, request: request, api: api, fields: [:], action: "photo")
        }
        if isTrap(fields) {
            desk.discard(upload)
            return trapped(request: request, api: api, fields: fields)
        }
        guard let machine = fields["machine"], let author = fields["author"] else {
            desk.discard(upload)
            return failure(FormProblem(.badRequest, "machine and author are required"), request: request, api: api,
                           fields: fields, action: "photo")
        }
        let share = ["on", "true", "1", "yes"].contains(fields["share_location"]?.lowercased() ?? "")
        let form = PhotoForm(machine: machine, part: nonEmpty(fields["part"]), author: author,
                             caption: nonEmpty(fields["caption"]), shareLocation: share)
        return respond(await desk.submit(form, upload: upload), request: request, api: api, fields: fields, action: "photo")
    }

    // MARK: Replies

    private func respond(_ outcome: IntakeOutcome, request: Request, api: Bool, fields: [String: String], action: String) -> Response {
        switch outcome {
        case .received(let id, let held):
            IntakeEvent.received(id: id, held: held).log(to: logger)
            if wantsJSON(request, api: api) {
                return json(.created, ["id": id, "status": held ? "held" : "received"])
            }
            // Relative, so the thank-you page is found under a proxy's path prefix too.
            let location = "../thanks?held=\(held ? 1 : 0)&back=\(query(back(fields["back"])))"
            return Response(status: .seeOther, headers: [.location: location])
        case .refused(let reason):
            IntakeEvent.refused(reason: reason).log(to: logger)
            return failure(FormProblem(.unprocessableContent, reason), request: request, api: api, fields: fields, action: action)
        case .failed(let reason):
            IntakeEvent.failed(reason: reason, inbox: desk.inbox.name).log(to: logger)
            return failure(FormProblem(.serviceUnavailable, reason), request: request, api: api, fields: fields, action: action)
        }
    }

    /// `action` is where the refusal page posts again: relative to the form's own address, so it
    /// holds under a proxy's path prefix as the thank-you redirect does.
    private func failure(_ error: any Error, request: Request, api: Bool, fields: [String: String], action: String) -> Response {
        let problem: FormProblem
        switch error {
        case let known as FormProblem: problem = known
        case let unreadable as MultipartReader.Failure: problem = unreadable.problem
        case is InboxFailure: problem = FormProblem(.serviceUnavailable, IntakeDesk.unstored)
        default: problem = FormProblem(.badRequest, "the request could not be read")
        }
        if wantsJSON(request, api: api) { return json(problem.status, ["error": problem.message]) }
        return html(problem.status, IntakePages.refused(siteTitle: desk.config.title, reason: problem.message,
                                                        back: back(fields["back"]), action: action, fields: fields))
    }

    private func limited(_ seconds: Int, sender: String, request: Request, api: Bool) -> Response {
        IntakeEvent.limited(address: sender).log(to: logger)
        let message = "too many submissions from your address; please wait \(seconds) s"
        var response = wantsJSON(request, api: api)
            ? json(.tooManyRequests, ["error": message])
            : html(.tooManyRequests, IntakePages.notice("Please wait", message, siteTitle: desk.config.title))
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    /// A robot gets the same answer as a person, so it learns nothing; nothing is kept.
    private func trapped(request: Request, api: Bool, fields: [String: String]) -> Response {
        IntakeEvent.trapped.log(to: logger)
        if wantsJSON(request, api: api) { return json(.created, ["id": IntakeID.make(), "status": "received"]) }
        return Response(status: .seeOther, headers: [.location: "../thanks?held=0&back=\(query(back(fields["back"])))"])
    }

    /// Who the rate limit counts: the connection's address, or the proxy's word for it.
    private func address(_ request: Request, _ context: IntakeContext) -> String {
        guard settings.behindProxy,
              let forwarded = request.headers.last(where: { $0.name.canonicalName == "x-forwarded-for" })?.value,
              let last = forwarded.split(separator: ",").last.map({ $0.trimmingCharacters(in: .whitespaces) }), !last.isEmpty
        else { return context.address }
        return last
    }

    private func isTrap(_ fields: [String: String]) -> Bool { !(fields[FormBody.trap] ?? "").isEmpty }

    /// Scripts ask for JSON; a plain form post gets pages.
    private func wantsJSON(_ request: Request, api: Bool) -> Bool {
        api || (request.headers[.accept] ?? "").contains("application/json")
    }

    /// The page to link back to: the posted one when it is on the site, else the site's home.
    /// Where the thank-you page links back to: the page posted from, if it is on the site.
    /// Compared as parsed URLs (scheme, host, port, then path under the site's): a string
    /// prefix let `http://127.0.0.1:8080@evil.example/` pass for a site at `http://127.0.0.1:8080`.
    private func back(_ posted: String?) -> String {
        guard let posted, !posted.contains(where: { $0.isNewline || $0 == "\\" }),
              let url = URLComponents(string: posted), let site = URLComponents(string: settings.siteURL),
              url.user == nil, url.password == nil,
              url.scheme?.lowercased() == site.scheme?.lowercased(), url.host?.lowercased() == site.host?.lowercased(),
              url.port == site.port
        else { return settings.siteURL }
        let base = site.path.hasSuffix("/") ? site.path : site.path + "/"
        guard url.path == site.path || url.path.hasPrefix(base), !url.path.split(separator: "/").contains("..") else {
            return settings.siteURL
        }
        return posted
    }

    private func query(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    // MARK: Inbox

    /// The longest a sync may ask to wait for the manifest to change: under the idle timeouts
    /// of this service's default settings and of common proxies.
    static let longestWait = 20.0

    /// Waits until the manifest's SHA-256 is no longer `since`, for at most `seconds`:
    /// `manifest.json?since=DIGEST&wait=SECONDS` answers as soon as a submission is published,
    /// so a resident sync (`sync --follow`) learns of it at once instead of at its next listing.
    /// The file's status is looked at every 10 ms; it is read and hashed only when that changed.
    private func manifestChange(since: String, seconds: Double) async {
        let path = desk.inbox.manifestPath
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var seen: UInt64?
        // A stopping service answers at once: its graceful shutdown waits for open requests.
        while ContinuousClock.now < deadline && !Task.isShuttingDownGracefully {
            let status = FileSystem.status(path)?.signature
            if status != seen {
                seen = status
                // An unreadable manifest is answered (as an error) at once, not waited on.
                guard let data = FileManager.default.contents(atPath: path), SHA256Hex.of(data) == since else { return }
            }
            // A cancelled wait (the client went away, the service stops) answers at once.
            do { try await Task.sleep(for: .milliseconds(10)) } catch { return }
        }
    }

    private func inboxFile(_ name: String) -> Response {
        // The folder of a bucket inbox holds only uploads in progress: its empty manifest would
        // tell sync there is nothing to take.
        if let bucket = desk.inbox.bucketName {
            return text(.notFound, "this inbox is kept in \(bucket): sync reads it there (teardown sync --from \(bucket))\n")
        }
        var listed = name == "manifest.json"
        do throws(InboxFailure) {
            if !listed { listed = try desk.inbox.lists(name) }
        } catch {
            IntakeEvent.unreadable(reason: "the inbox's manifest cannot be read: \(error.reason)").log(to: logger)
            return text(.internalServerError, "the inbox's manifest cannot be read\n")
        }
        // A listed file that cannot be read is answered as not found below.
        guard listed, let data = try? Data(contentsOf: URL(fileURLWithPath: desk.inbox.folder + "/" + name), options: .alwaysMapped)
        else { return text(.notFound, "not in the inbox\n") }
        let type = name.hasSuffix(".json") ? "application/json" : "application/octet-stream"
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

private func nonEmpty(_ value: String?) -> String? {
    guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
    return value
}

private func html(_ status: HTTPResponse.Status, _ page: String) -> Response {
    Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
             body: .init(byteBuffer: ByteBuffer(string: page)))
}

private func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
    Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
}

private func json(_ status: HTTPResponse.Status, _ object: [String: String]) -> Response {
    // A dictionary of strings: serializing it cannot fail.
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
}
