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
            // A preview that rebuilds on each edit is what a new site's first hour wants.
            print(Terminal.safe("Created a site in \(directory) (\(files.count) files). Next: teardown serve --site \(directory) "
                                + "to preview it as you edit, or teardown build --site \(directory) to build it once"))
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
            // Paths as the shell that ran the command reaches them, not relative to the site.
            for file in files { print(Terminal.safe("created " + (options.site == "." ? file : (options.site as NSString).appendingPathComponent(file)))) }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode.failure
        }
    }
}
