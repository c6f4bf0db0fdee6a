import Foundation

/// Loads a site's content folder into immutable values, gathering every problem found.
public struct ContentLoader: Sendable {
    /// The folder holding content/ and Themes/.
    public let siteRoot: String
    /// Where bundles shipped as .zip archives are unpacked; <site>/.teardown-cache/bundles by default.
    public let archiveCache: String

    public init(siteRoot: String, archiveCache: String? = nil) {
        self.siteRoot = siteRoot
        self.archiveCache = archiveCache ?? (siteRoot as NSString).appendingPathComponent(".teardown-cache/bundles")
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
        let slugs = Set(machines.map(\.slug))
        for collection in config.collections {
            for slug in collection.machines where !slugs.contains(slug) {
                diagnostics.append(.warning(.invalidValue(key: "machines", reason: "collection '\(collection.slug)' lists '\(slug)', "
                                                              + "which is not a machine; it is left out"),
                                            at: collection.location))
            }
        }
        return (SiteContent(root: siteRoot, config: config, machines: machines, manual: manual), diagnostics)
    }

    private func loadMachines(_ folder: SourceFile, config: SiteConfig, diagnostics: inout [Diagnostic]) -> [Machine] {
        let loader = MachineLoader(community: CommunityLoader(limits: config.limits))
        let entries = TextFile.list(folder, diagnostics: &diagnostics)
        let names = entries.map(\.name)
        let folders = Set(entries.filter(\.isDirectory).map(\.name))
        let bundles = names.compactMap { name in
            folders.contains(name) ? name : name.hasSuffix(".zip") ? String(name.dropLast(4)) : nil
        }
        TextFile.reportCaseTwins(bundles, in: folder, diagnostics: &diagnostics)
        // Bundles are independent, so they load in parallel; results keep folder order.
        let results = ParallelMap.map(names) { name -> (Machine?, String?, [Diagnostic]) in
            var local: [Diagnostic] = []
            let entry = folder.appending(name)
            if folders.contains(name) { return (loader.load(entry, diagnostics: &local), nil, local) }
            guard entry.pathExtension == "zip", FileSystem.isRegularFile(entry.absolutePath) else {
                local.append(.warning(.invalidValue(key: "machines",
                                                    reason: "'\(name)' is neither a bundle folder nor a .zip of one and is ignored"),
                                      at: entry.location()))
                return (nil, nil, local)
            }
            guard !folders.contains(entry.stem) else {
                local.append(.error(.bundleTwice(entry.stem), at: entry.location()))
                return (nil, nil, local)
            }
            guard TextFile.isValidName(entry.stem) else {
                local.append(.error(.invalidName(entry.stem), at: entry.location()))
                return (nil, nil, local)
            }
            let archive = BundleArchive(file: entry, cache: archiveCache, maxBytes: config.limits.bundleMaxBytes)
            guard let (unpacked, key) = archive.unpack(diagnostics: &local) else { return (nil, nil, local) }
            return (loader.load(unpacked, diagnostics: &local), key, local)
        }
        diagnostics += results.flatMap(\.2)
        BundleArchive.prune(archiveCache, keeping: Set(results.compactMap(\.1)))
        return results.compactMap(\.0)
    }
}
