import ArgumentParser
import Foundation
import TeardownContent

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new site or machine bundle that builds as it is.",
        subcommands: [NewSiteCommand.self, NewMachineCommand.self]
    )
}

struct NewSiteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "site",
        abstract: "Create a site folder with settings, an example machine and a manual page."
    )

    @Argument(help: "The folder to create the site in.")
    var directory: String

    @Option(help: "The site's title (default: the folder's name).")
    var title: String?

    func run() throws {
        do {
            let files = try Scaffolder().newSite(at: directory, title: title)
            print("Created a site in \(directory) (\(files.count) files). Next: teardown build --site \(directory)")
        } catch {
            Terminal.error("\(error)")
            throw ExitCode.failure
        }
    }
}

struct NewMachineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "machine",
        abstract: "Create a machine bundle in content/machines/<name>/ with two example parts."
    )

    @Argument(help: "The machine's folder name: letters, digits, '-' and '_'.")
    var name: String

    @OptionGroup var options: SiteOptions

    func run() throws {
        do {
            let files = try Scaffolder().newMachine(named: name, siteRoot: options.site)
            for file in files { print("created \(file)") }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode.failure
        }
    }
}
