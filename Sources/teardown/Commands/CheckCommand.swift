import ArgumentParser
import Foundation
import TeardownBuild

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the site's content and theme without writing anything.",
        discussion: """
            Lists every problem as path:line:col and exits with status 1 when any is an error. \
            With --strict, warnings are errors too: a way to keep a catalog free of them in CI.
            """
    )

    @OptionGroup var options: SiteOptions

    @Flag(help: "Report every warning as an error, such as a spec value that does not parse, and fail on it.")
    var strict = false

    func run() throws {
        let found = SiteBuilder(siteRoot: options.site).check()
        let diagnostics = strict ? found.map(\.asError) : found
        DiagnosticPrinter.print(diagnostics, site: options.site)
        print("Checked \(options.site): \(DiagnosticPrinter.summary(diagnostics))")
        if diagnostics.hasErrors { throw ExitCode.failure }
    }
}
