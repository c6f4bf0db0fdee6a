import ArgumentParser
import Foundation
import TeardownBase

@main
struct Teardown: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "teardown",
        abstract: "Build static catalogs of machines you can take apart.",
        version: TeardownVersion.current,
        subcommands: [BuildCommand.self, CheckCommand.self, SyncCommand.self, DeployCommand.self, ServeCommand.self, IntakeCommand.self,
                      ModerateCommand.self, NewCommand.self]
    )

    /// A mistyped command is named with the one it most likely meant: the parser's own
    /// "Unexpected argument 'bild'" left a newcomer guessing.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, !first.hasPrefix("-"), first != "help" {
            let names = configuration.subcommands.compactMap { $0.configuration.commandName }
            if !names.contains(first) {
                let hint = KeySuggestion.closest(to: first, in: names).map { "; did you mean '\($0)'?" } ?? ""
                Terminal.error("unknown command '\(first)'\(hint) ('teardown help' lists them)")
                Foundation.exit(64)
            }
        }
        await main(nil)
    }
}
