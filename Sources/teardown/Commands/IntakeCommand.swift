import ArgumentParser
import Foundation
import TeardownIntake
import TeardownBase
import TeardownInbox

struct IntakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intake",
        abstract: "Take comments and photos from the site's forms and API into an inbox for sync.",
        discussion: """
            Pages get "Post a comment" and "Add a photo" forms when site.yaml sets intake_url to \
            where this service is reached. Submissions are checked as sync checks them and written \
            durably into the inbox; with moderation: true in site.yaml they wait for \
            `teardown moderate`. `teardown sync --from http://HOST:PORT/inbox/` reads the inbox \
            with the token from --token-file, TEARDOWN_INBOX_TOKEN, or INBOX/.token, made on first start.
            """
    )

    @OptionGroup var options: SiteOptions

    @Option(name: .long, help: ArgumentHelp("The inbox to write: a folder, or s3://BUCKET[/PREFIX] shared with other intake processes.",
                                            valueName: "dir"))
    var inbox: String

    @Option(name: .long, help: ArgumentHelp("For an s3:// inbox, the store's address (default: AWS).", valueName: "url"))
    var endpoint: String?

    @Option(name: .long, help: ArgumentHelp("For an s3:// inbox, the region to sign for.", valueName: "region"))
    var region: String?

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on.")
    var port = 8081

    @Option(name: .long, help: ArgumentHelp("A file holding the token sync must send (default: TEARDOWN_INBOX_TOKEN, else INBOX/.token).",
                                            valueName: "file"))
    var tokenFile: String?

    @Option(name: .long, help: "Submissions one address may make a minute.")
    var rateLimit = 10

    @Flag(name: .long, help: "Count the rate limit by the last X-Forwarded-For address, set by a reverse proxy in front.")
    var behindProxy = false

    @Option(name: .long, help: ArgumentHelp("Seconds a connection may wait without a request before it is closed.", valueName: "seconds"))
    var idleTimeout = 30

    @Option(name: .long, help: ArgumentHelp("Seconds a sender has to deliver a request's body (408 after).", valueName: "seconds"))
    var bodyTimeout = 60

    @Option(name: .long, help: ArgumentHelp("Connections one address may hold open at once.", valueName: "count"))
    var connectionsPerAddress = 16

    @Option(name: .long, help: ArgumentHelp("Where the pages are served, for the link back after posting (default: base_url).",
                                            valueName: "url"))
    var siteURL: String?

    @Option(name: .long, help: ArgumentHelp("The built site, whose catalog.json tells of new machines (default: <site>/public).",
                                            valueName: "dir"))
    var output: String?

    func validate() throws {
        if let outOfRange = LocalPort.outOfRange(port) { throw ValidationError(outOfRange) }
        for (name, value) in [("--idle-timeout", idleTimeout), ("--body-timeout", bodyTimeout),
                              ("--connections-per-address", connectionsPerAddress)] where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
    }

    func run() async throws {
        if let problem = LocalPort.problem(host: host, port: port) {
            Terminal.error("\(problem)")
            throw ExitCode.failure
        }
        let bucket = inbox.hasPrefix("s3://")
        let inboxStore = try bucket ? openBucket() : Self.open(inbox)
        let desk: IntakeDesk
        do {
            let site = options.site
            desk = try IntakeDesk(siteRoot: site, inbox: inboxStore, output: output) { failure in
                DiagnosticPrinter.print(failure.diagnostics, site: site)
                Terminal.error("the site no longer loads (\(DiagnosticPrinter.summary(failure.diagnostics))); "
                               + "submissions are checked against the content as it was before")
            }
        } catch {
            DiagnosticPrinter.print(error.diagnostics, site: options.site)
            Terminal.report("Intake not started: the site has \(DiagnosticPrinter.summary(error.diagnostics)).")
            throw ExitCode.failure
        }
        let token = try InboxToken.read(file: tokenFile) ?? InboxToken.stored(in: inboxStore.folder)
        var settings = IntakeServer.Settings(token: token, siteURL: siteURL ?? desk.config.baseURL)
        settings.host = host
        settings.port = port
        settings.perMinute = rateLimit
        settings.behindProxy = behindProxy
        settings.idleTimeout = idleTimeout
        settings.bodyTimeout = bodyTimeout
        settings.connectionsPerAddress = connectionsPerAddress
        if behindProxy, !["127.0.0.1", "::1", "localhost"].contains(host) {
            // X-Forwarded-For is believed from whoever connects: only the proxy may reach the service.
            Terminal.warning("--behind-proxy believes X-Forwarded-For from any client; listen on a loopback address, "
                             + "where only the proxy in front can reach the service, not on \(host)")
        }
        settings.tokenSource = tokenFile ?? (ProcessInfo.processInfo.environment[InboxToken.variable] != nil
            ? InboxToken.variable : inboxStore.folder + "/.token")
        if bucket { settings.syncReads = "\(inboxStore.name) (teardown sync --from \(inboxStore.name))" }
        let server = IntakeServer(desk: desk, settings: settings, logger: TerminalLogHandler.logger("intake"))
        try await server.run()
    }
}

extension IntakeCommand {
    /// A bucket inbox, with a folder of the site's cache for uploads in progress, one per
    /// address and port, so that intake processes on one machine never share one.
    func openBucket() throws -> IntakeInbox {
        let (location, credentials) = try BucketAccess.resolve(inbox, endpoint: endpoint, region: region)
        let staging = CacheLayout(siteRoot: options.site).intakeStaging(host: host, port: port)
        do {
            let store = try IntakeInbox(folder: staging, bucket: (location, credentials))
            try store.recover()
            try store.checkBucket()
            return store
        } catch {
            Terminal.error("\(error)")
            throw ExitCode.failure
        }
    }

    /// The inbox, with what a killed run left cleared away.
    static func open(_ folder: String) throws -> IntakeInbox {
        let store: IntakeInbox
        do {
            store = try IntakeInbox(folder: folder)
            try store.recover()
        } catch {
            throw ValidationError("Cannot use the inbox: \(error)")
        }
        return store
    }
}

