import ArgumentParser

/// The --site option every command that reads a site shares.
struct SiteOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The site folder, holding content/ and Themes/.", valueName: "dir"))
    var site: String = "."
}
