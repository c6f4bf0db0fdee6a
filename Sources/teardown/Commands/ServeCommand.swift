import ArgumentParser
import Foundation
import TeardownBase
import TeardownServe

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, serve it locally, and rebuild and reload on every change.",
        discussion: """
            Watches content/ and Themes/; each change triggers an incremental build, and open \
            pages reload. A build error shows on the open pages instead of stopping the server. \
            Stop with Ctrl-C.
            """
    )

    @OptionGroup var options: SiteOptions

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on.")
    var port = 8080

    @Option(name: .long, help: ArgumentHelp("Where to write the preview (default: <site>/.teardown-cache/preview, so public/ keeps site.yaml's base URL).", valueName: "dir"))
    var output: String?

    @Flag(name: .long, help: "Watch by polling modification times instead of inotify.")
    var poll = false

    func validate() throws {
        if let outOfRange = LocalPort.outOfRange(port) { throw ValidationError(outOfRange) }
    }

    func run() async throws {
        // Before the first build, which can take minutes, not after it.
        if let problem = LocalPort.problem(host: host, port: port) {
            Terminal.error("\(problem)")
            throw ExitCode.failure
        }
        let site = options.site
        let server = PreviewServer(siteRoot: site, output: output, host: host, port: port, forcePolling: poll,
                                   logger: TerminalLogHandler.logger("serve")) { event in
            switch event {
            case .built(let report, let seconds):
                DiagnosticPrinter.print(report.warnings, site: site)
                Terminal.log(BuildSummary.line(report, seconds: String(format: "%.2f", seconds)))
                for notice in report.notices { Terminal.log("note: \(notice)") }
            case .failed(let failure, let servesEarlier):
                DiagnosticPrinter.print(failure.diagnostics, site: site)
                let serving = servesEarlier ? "; serving the last good build." : "; nothing is built yet: the browser shows the errors."
                Terminal.write(BuildSummary.failed(failure, on: .error) + Terminal.safe(serving) + "\n", to: .error)
            case .watching(let polling):
                if let polling {
                    Terminal.warning("\(polling); watching by polling every 0.3 s instead")
                } else {
                    Terminal.log("Watching content/ and Themes/ for changes")
                }
            case .listening(let url):
                Terminal.log("Serving on \(url) (Ctrl-C to stop)")
            }
        }
        try await server.run()
        Terminal.log("Stopped")
    }
}

