import ArgumentParser
import Foundation
import TeardownKit

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the site's content and theme without writing anything.",
        discussion: "Lists every problem as path:line:col and exits with status 1 when any is an error."
    )

    @OptionGroup var options: SiteOptions

    func run() throws {
        let diagnostics = SiteBuilder(siteRoot: options.site).check()
        DiagnosticPrinter.print(diagnostics, site: options.site)
        print("Checked \(options.site): \(DiagnosticPrinter.summary(diagnostics))")
        if diagnostics.hasErrors { throw ExitCode.failure }
    }
}
