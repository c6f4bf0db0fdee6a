import ArgumentParser
import TeardownKit

@main
struct Teardown: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "teardown",
        abstract: "Build static catalogs of machines you can take apart.",
        version: TeardownVersion.current,
        subcommands: [BuildCommand.self, CheckCommand.self, SyncCommand.self, DeployCommand.self, ServeCommand.self, IntakeCommand.self,
                      ModerateCommand.self, NewCommand.self]
    )
}
