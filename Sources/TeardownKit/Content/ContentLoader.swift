import Foundation

/// Loads a site's content folder into immutable values, gathering every problem found.
public struct ContentLoader: Sendable {
    /// The folder holding content/ and Themes/.
    public let siteRoot: String

    public init(siteRoot: String) {
        self.siteRoot = siteRoot
    }

    /// The content and all diagnostics; the content is only usable when no diagnostic is an error.
    public func load() -> (content: SiteContent, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let content = SourceFile(root: siteRoot, relative: "content")
        if !TextFile.isDirectory(content.absolutePath) {
            diagnostics.append(.error(.missingFile("content/ folder (is --site pointing at the site folder?)"),
                                      at: SourceLocation("content")))
        }
        let config = SiteConfigLoader.load(content.appending("site.yaml"), diagnostics: &diagnostics)
        let machines = loadMachines(content.appending("machines"), config: config, diagnostics: &diagnostics)
        let manual = ManualLoader().load(content.appending("manual"), diagnostics: &diagnostics)
        return (SiteContent(root: siteRoot, config: config, machines: machines, manual: manual), diagnostics)
    }

    private func loadMachines(_ folder: SourceFile, config: SiteConfig, diagnostics: inout [Diagnostic]) -> [Machine] {
        let loader = MachineLoader(community: CommunityLoader(limits: config.limits))
        let names = TextFile.entries(of: folder.absolutePath)
        // Bundles are independent, so they load in parallel; results keep folder order.
        let results = ParallelMap.map(names) { name -> (Machine?, [Diagnostic]) in
            var local: [Diagnostic] = []
            let entry = folder.appending(name)
            guard TextFile.isDirectory(entry.absolutePath) else {
                local.append(.warning(.invalidValue(key: "machines", reason: "'\(name)' is not a bundle folder and is ignored"),
                                      at: entry.location()))
                return (nil, local)
            }
            let machine = loader.load(entry, diagnostics: &local)
            return (machine, local)
        }
        diagnostics += results.flatMap(\.1)
        return results.compactMap(\.0)
    }
}
