import ArgumentParser
import Foundation
import TeardownBase
import TeardownBuild

struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render the site into a static folder.",
        discussion: """
            Reads content/ and Themes/ from the site folder and brings the output folder up to \
            date, rendering only pages whose inputs changed since the last build. The new site \
            replaces the old one in one step; on any error the previous output stays as it was.
            """
    )

    @OptionGroup var options: SiteOptions

    @Option(name: .long, help: ArgumentHelp("Where to write the site (default: <site>/public).", valueName: "dir"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("The URL the site is published at, overriding site.yaml's base_url.",
                                            valueName: "url"))
    var baseURL: String?

    @Flag(name: .long, help: "Render every page, ignoring what the last build recorded.")
    var full = false

    @Flag(name: .long, help: "Print how long each step of the build took.")
    var timings = false

    func run() throws {
        let start = Date()
        var builder = SiteBuilder(siteRoot: options.site, output: output, baseURL: baseURL, full: full, counters: CountsFile.counters)
        builder.exitsAfter = true
        defer { CountsFile.write() }
        do {
            let progress = ProgressLine()
            let report = try builder.build { progress.update($0) }
            DiagnosticPrinter.print(report.warnings, site: options.site)
            let seconds = String(format: "%.2f", Date().timeIntervalSince(start))
            BuildSummary.print(report, seconds: seconds)
            // Notes explain the summary (why a build read every bundle): they follow it.
            for notice in report.notices { print("note: \(notice)") }
            if timings { print(BuildSummary.timings(report.timings)) }
        } catch {
            DiagnosticPrinter.print(error.diagnostics, site: options.site)
            Terminal.write(BuildSummary.failed(error, on: .error) + Terminal.safe("; \(error.outputOutcome).") + "\n", to: .error)
            throw ExitCode.failure
        }
    }
}

/// The one line a build ends with, shared by build, sync and serve.
enum BuildSummary {
    static func line(_ report: SiteBuilder.Report, seconds: String) -> String {
        let size = "\(report.pages) pages and \(report.files) files"
        if report.unchanged {
            return "Up to date: \(size) in \(report.output), nothing changed (\(seconds) s)"
        }
        let images = report.imagesProcessed > 0
            ? String(format: "; %d images processed in %.2f s", report.imagesProcessed, report.imageSeconds)
            : String(format: "; images from the cache in %.0f ms", report.imageSeconds * 1000)
        return "Built \(size) into \(report.output) in \(seconds) s: \(report.written) written, \(report.removed) removed" + images
    }

    /// "Build failed in step 'load': 1 error, 0 warnings", for every command that builds, in
    /// red on a terminal.
    static func failed(_ failure: BuildFailure, on stream: Terminal.Stream) -> String {
        let step = failure.step.map { " in step '\($0.rawValue)'" } ?? ""
        return Terminal.paint("Build failed\(step):", .red, on: stream) + " \(DiagnosticPrinter.summary(failure.diagnostics))"
    }

    /// The summary line on standard output, its first words in green on a terminal.
    static func print(_ report: SiteBuilder.Report, seconds: String) {
        let line = Terminal.safe(Self.line(report, seconds: seconds))
        let lead = line.hasPrefix("Up to date:") ? "Up to date:" : "Built"
        Terminal.write(Terminal.paint(lead, .green, on: .output) + line.dropFirst(lead.count) + "\n", to: .output)
    }

    /// One line per step that ran, with its time, for `--timings`.
    static func timings(_ timings: [BuildTiming]) -> String {
        timings.map { Self.timing($0.step.rawValue, seconds: $0.seconds) }.joined(separator: "\n")
    }

    /// One step's line: its name, then its time in milliseconds.
    static func timing(_ step: String, seconds: Double) -> String {
        let width = BuildStep.allCases.map(\.rawValue.count).max() ?? 0
        return "  " + step.padding(toLength: width, withPad: " ", startingAt: 0) + String(format: " %8.1f ms", seconds * 1000)
    }
}
