import ArgumentParser
import Foundation
import TeardownInbox
import TeardownBase

struct DeployCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deploy",
        abstract: "Upload what changed in the built site to an S3-compatible bucket.",
        discussion: """
            Compares the output folder with the bucket's deploy manifest and uploads only new \
            and changed files: assets first, then pages, then deletions (more than \
            --max-deletes are refused), then the manifest. Credentials come from AWS_ACCESS_KEY_ID and \
            AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), or from ~/.aws/credentials under \
            AWS_PROFILE. The target and headers can be set in site.yaml's deploy: section.
            """
    )

    @OptionGroup var options: SiteOptions
    @OptionGroup var target: DeployOptions

    @Option(name: .long, help: ArgumentHelp("The built site to upload (default: <site>/public).", valueName: "dir"))
    var output: String?

    func validate() throws { try target.validate() }

    func run() throws {
        let output = output ?? (options.site as NSString).appendingPathComponent("public")
        guard FileManager.default.fileExists(atPath: output + "/index.html") else {
            Terminal.error("\(output) holds no built site; run `teardown build` first")
            throw ExitCode.failure
        }
        try target.deploy(site: options.site, output: output)
    }
}

/// The options `deploy` and `sync --deploy` share, and the run they both make.
struct DeployOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where to: s3://BUCKET[/PREFIX] (default: deploy.to in site.yaml).", valueName: "url"))
    var to: String?

    @Option(name: .long, help: ArgumentHelp("The store's address, for MinIO, Ceph, Garage or R2 (default: AWS).", valueName: "url"))
    var endpoint: String?

    @Option(name: .long, help: ArgumentHelp("The region to sign for (default: AWS_REGION, ~/.aws/config, us-east-1).", valueName: "region"))
    var region: String?

    @Flag(name: .long, help: "Print the plan: each upload, replacement and deletion with its size and reason; touch nothing.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("Refuse to delete more objects than this.", valueName: "n"))
    var maxDeletes = 256

    @Option(name: .long, help: ArgumentHelp("Requests in flight at once.", valueName: "n"))
    var concurrency = 8

    @Flag(name: .long, help: "List the bucket and compare each object's size and ETag with the built site, putting back what was changed or deleted behind deploy's back.")
    var verify = false

    @Option(name: .long, help: ArgumentHelp("Seconds from the start by which every request must be done (default: no limit but each request's 300).", valueName: "seconds"))
    var timeout: Int?

    func validate() throws {
        if let timeout, timeout < 1 { throw ValidationError("--timeout must be at least 1 second") }
        if maxDeletes < 0 { throw ValidationError("--max-deletes must be 0 or more") }
        if !(1...64).contains(concurrency) { throw ValidationError("--concurrency must be between 1 and 64") }
    }

    /// `buildLockHeld`: called by a build between its two publishes, which holds the output's lock.
    func deploy(site: String, output: String, buildLockHeld: Bool = false) throws {
        let (settings, diagnostics) = Deployer.settings(siteRoot: site)
        if diagnostics.contains(where: { $0.severity == .error }) {
            DiagnosticPrinter.print(diagnostics, site: site)
            Terminal.report("Deploy stopped: site.yaml has \(DiagnosticPrinter.summary(diagnostics)).")
            throw ExitCode.failure
        }
        guard let destination = to ?? settings.to else {
            throw ValidationError("No target given: pass --to s3://BUCKET[/PREFIX] or set deploy.to in content/site.yaml.")
        }
        let (location, credentials) = try BucketAccess.resolve(destination, endpoint: endpoint ?? settings.endpoint,
                                                               region: region ?? settings.region)
        var deployOptions = Deployer.Options(location: location, credentials: credentials)
        deployOptions.dryRun = dryRun
        deployOptions.maxDeletes = maxDeletes
        deployOptions.concurrency = concurrency
        deployOptions.headers = settings.headers
        deployOptions.verify = verify
        deployOptions.buildLockHeld = buildLockHeld
        deployOptions.deadline = timeout.map { Date(timeIntervalSinceNow: TimeInterval($0)) }
        let cache = CacheLayout(siteRoot: site).root
        let deployer = Deployer(output: output, cacheFolder: cache, options: deployOptions)
        let dryRun = dryRun
        let start = Date()
        let report: Deployer.Report
        do throws(StoreFailure) {
            report = try deployer.run { event in
                switch event {
                case .planned(let plan):
                    if plan.listed { Terminal.log("note: \(location.description) has no deploy manifest; compared by listing the bucket") }
                    if dryRun {
                        for step in plan.uploads + plan.deletions {
                            Terminal.log("\(step.action.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(step.path)  "
                                         + "\(Int64(step.size).formatted(.byteCount(style: .file, spellsOutZero: false)))  (\(step.reason))")
                        }
                    }
                case .uploaded, .deleted:
                    break
                case .deletionsRefused(let count, let limit):
                    Terminal.warning("\(count) objects are no longer in the site, more than --max-deletes \(limit): none was deleted; "
                                     + "run again with --max-deletes \(count) to delete them")
                }
            }
        } catch {
            Terminal.error("\(error.description)")
            Terminal.report("Deploy stopped; the next deploy finishes what this one began.")
            throw ExitCode.failure
        }
        let plan = report.plan
        let uploads = plan.uploads.filter { $0.action == .upload }.count
        let replaced = plan.uploads.count - uploads
        let counts = "\(uploads) new, \(replaced) replaced (\(Int64(plan.uploadBytes).formatted(.byteCount(style: .file, spellsOutZero: false)))), "
            + "\(plan.deletions.count) to delete, \(plan.unchanged) unchanged"
        if dryRun {
            Terminal.log("Dry run of \(location.description) at \(location.shownEndpoint): \(counts); nothing was changed")
        } else {
            Terminal.log("Deployed to \(location.description) at \(location.shownEndpoint) in "
                         + String(format: "%.2f", Date().timeIntervalSince(start)) + " s: \(counts), \(report.deleted) deleted")
        }
    }
}
