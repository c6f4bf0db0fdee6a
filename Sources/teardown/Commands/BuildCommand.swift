import ArgumentParser
import Foundation
import TeardownKit

struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render the site into a static folder.",
        discussion: """
            Reads content/ and Themes/ from the site folder and writes the site to the output \
            folder. On any error nothing is written and the previous output stays as it was.
            """
    )

    @OptionGroup var options: SiteOptions

    @Option(name: .long, help: ArgumentHelp("Where to write the site (default: <site>/public).", valueName: "dir"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("The URL the site is published at, overriding site.yaml's base_url.",
                                            valueName: "url"))
    var baseURL: String?

    func run() throws {
        let start = Date()
        let builder = SiteBuilder(siteRoot: options.site, output: output, baseURL: baseURL)
        do {
            let report = try builder.build()
            DiagnosticPrinter.print(report.warnings, site: options.site)
            let seconds = String(format: "%.2f", Date().timeIntervalSince(start))
            print("Built \(report.pages) pages and \(report.files) files into \(report.output) in \(seconds) s")
        } catch {
            DiagnosticPrinter.print(error.diagnostics, site: options.site)
            FileHandle.standardError.write(Data("Build failed: \(DiagnosticPrinter.summary(error.diagnostics)); nothing was written.\n".utf8))
            throw ExitCode.failure
        }
    }
}
