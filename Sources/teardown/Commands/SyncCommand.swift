import ArgumentParser
import Foundation
import TeardownBase
import TeardownBuild
import TeardownInbox

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Pull community comments, photos and takedowns from an inbox into the bundles.",
        discussion: """
            SOURCE is a folder, an http(s):// URL or an ftp:// URL holding an inbox (see the \
            manual's "Syncing community content"). Accepted submissions are filed into their \
            bundles, rejected ones are kept in content/.quarantine/ with a reason, and an \
            incremental build follows.
            """
    )

    @OptionGroup var options: SiteOptions

    @Option(name: .long, help: ArgumentHelp("The inbox (default: sync_source in site.yaml).", valueName: "source"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("For an s3:// inbox, the store's address (default: AWS).", valueName: "url"))
    var endpoint: String?

    @Option(name: .long, help: ArgumentHelp("For an s3:// inbox, the region to sign for.", valueName: "region"))
    var region: String?

    @Option(name: .long, help: ArgumentHelp(
        "A file holding the token of a `teardown intake` inbox (default: the TEARDOWN_INBOX_TOKEN environment variable).",
        valueName: "file"))
    var tokenFile: String?

    @Option(name: .long, help: ArgumentHelp("Seconds from the sync's start by which a remote inbox's downloads (a bucket's requests too) must be done.", valueName: "seconds"))
    var timeout = Int(Inbox.defaultTimeout)

    @Flag(name: .long, help: "Print what would be accepted, rejected and taken down; change nothing.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("Where the build writes the site (default: <site>/public).", valueName: "dir"))
    var output: String?

    @Flag(name: .long, help: "Print how long the walk of the site, the review and each step of the build after it took.")
    var timings = false

    @Flag(name: .long, help: "After the build, deploy the site to deploy.to in site.yaml, as `teardown deploy` does.")
    var deploy = false

    @Flag(name: .long, help: ArgumentHelp(
        "Stay up: publish each submission and each edit under content/ as it comes, until Ctrl-C or SIGTERM.",
        discussion: "A folder inbox and content/ are watched. A `teardown intake` inbox answers as each submission is published; another remote inbox is listed every --interval milliseconds."))
    var follow = false

    @Option(name: .long, help: ArgumentHelp("With --follow, milliseconds between listings of a remote inbox.", valueName: "ms"))
    var interval = 200

    func validate() throws {
        if timeout < 1 { throw ValidationError("--timeout must be at least 1 second") }
        if interval < 10 { throw ValidationError("--interval must be at least 10 milliseconds") }
        if follow && dryRun { throw ValidationError("--follow publishes as it goes; a dry run is a one-off sync without it") }
        // Before the sync, not after it and its build.
        if deploy, Deployer.settings(siteRoot: options.site).settings.to == nil {
            throw ValidationError("--deploy needs deploy.to in content/site.yaml (see the manual's Publishing page)")
        }
    }

    func run() throws {
        guard let location = from ?? Syncer.configuredSource(siteRoot: options.site) else {
            throw ValidationError("No inbox given: pass --from SOURCE or set sync_source in content/site.yaml.")
        }
        let token = try InboxToken.read(file: tokenFile)
        let source = try sources(location, token: token)
        if follow { return try follow(location, source: source) }
        var builder = SiteBuilder(siteRoot: options.site, output: output, counters: CountsFile.counters)
        builder.exitsAfter = true
        let sync = SiteSync(syncer: Syncer(siteRoot: options.site, source: source(), counters: CountsFile.counters), builder: builder)
        defer { CountsFile.write() }
        let start = Date()
        let progress = ProgressLine()
        let outcome: SiteSync.Outcome
        do {
            outcome = try sync.run(dryRun: dryRun, reviewed: { Self.print($0) }, progress: { progress.update($0) })
        } catch {
            switch error {
            case .review(let failure as BuildFailure):
                DiagnosticPrinter.print(failure.diagnostics, site: options.site)
                Terminal.report("Sync stopped: the site has \(DiagnosticPrinter.summary(failure.diagnostics)); nothing was changed.")
            case .review(let failure):
                Terminal.report("Sync stopped: \(failure)")
            case .build(let failure, _):
                DiagnosticPrinter.print(failure.diagnostics, site: options.site)
                Terminal.write(BuildSummary.failed(failure, on: .error) + Terminal.safe(", after the sync; \(failure.outputOutcome).") + "\n",
                               to: .error)
                // The published pages reach the bucket: the next sync may find nothing to build.
                if deploy, failure.pagesPublished { try DeployOptions.parse([]).deploy(site: options.site, output: builder.output) }
            }
            throw ExitCode.failure
        }
        guard let build = outcome.build else { return }
        DiagnosticPrinter.print(build.warnings, site: options.site)
        let buildSeconds = Date().timeIntervalSince(start) - outcome.walkSeconds - outcome.reviewSeconds
        BuildSummary.print(build, seconds: String(format: "%.2f", buildSeconds))
        for notice in build.notices { Swift.print("note: \(notice)") }
        if timings {
            // The sync's own steps, before the build's: the walk is the only one that visits every input.
            Swift.print([BuildSummary.timing("walk", seconds: outcome.walkSeconds),
                         BuildSummary.timing("review", seconds: outcome.reviewSeconds),
                         BuildSummary.timings(build.timings)].joined(separator: "\n"))
        }
        if deploy { try DeployOptions.parse([]).deploy(site: options.site, output: builder.output) }
    }

    /// Makes the inbox `location` names, each with a deadline counted from when it is made
    /// (`--follow` makes one a round). Credentials are resolved once, here.
    func sources(_ location: String, token: String?) throws -> @Sendable () -> any InboxSource {
        let cache = CacheLayout(siteRoot: options.site), timeout = TimeInterval(timeout)
        if location.hasPrefix("s3://") {
            let (bucket, credentials) = try BucketAccess.resolve(location, endpoint: endpoint, region: region)
            return {
                BucketInbox(location: bucket, credentials: credentials, cacheFolder: cache.root,
                            deadline: Date(timeIntervalSinceNow: timeout))
            }
        }
        return { Inbox.source(location, scratch: cache.syncDownloads, token: token, timeout: timeout) }
    }

    /// Each action of the review, then its summary; `news` leaves out what was already present,
    /// and prints nothing when nothing else happened.
    static func print(_ report: SyncReport, news: Bool = false) {
        let width = SyncAction.Kind.allCases.map(\.rawValue.count).max() ?? 0
        if news, report.actions.allSatisfy({ $0.kind == .alreadyPresent }) { return }
        for action in report.actions where !news || action.kind != .alreadyPresent {
            let kind = action.kind.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let colour: Terminal.Colour = switch action.kind {
            case .accept: .green
            case .reject: .yellow
            case .takeDown: .cyan
            case .alreadyPresent: .bold
            }
            // Ids and reasons come from the inbox: shown safe.
            Terminal.write(Terminal.paint(kind, colour, on: .output) + "  " + Terminal.safe("\(action.id): \(action.detail)") + "\n",
                           to: .output)
        }
        Swift.print(Terminal.safe(summary(report)))
    }

    static func summary(_ report: SyncReport) -> String {
        let counts = (report.count(.accept), report.count(.reject), report.count(.takeDown), report.count(.alreadyPresent))
        if report.dryRun {
            return "Dry run of \(report.source): \(counts.0) to accept, \(counts.1) to reject, \(counts.2) to take down, "
                + "\(counts.3) already present; nothing was changed"
        }
        return "Synced \(report.source): \(counts.0) accepted, \(counts.1) rejected, \(counts.2) taken down, \(counts.3) already present"
    }
}
