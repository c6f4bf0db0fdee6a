import Foundation
import TeardownBase

/// Loads a site's content folder into immutable values, gathering every problem found.
public struct ContentLoader: Sendable {
    /// The folder holding content/ and Themes/.
    public let siteRoot: String
    /// Where bundles shipped as .zip archives are unpacked; <site>/.teardown-cache/bundles by default.
    public let archiveCache: String

    /// Where loaded bundles are kept between builds, and each bundle folder's signature now
    /// (`InputSnapshot.bundleSignatures`); nil reads every file.
    package let memo: ContentCache.Use?
    package let counters: BuildCounters

    public init(siteRoot: String, archiveCache: String? = nil) {
        self.init(siteRoot: siteRoot, archiveCache: archiveCache, memo: nil)
    }

    package init(siteRoot: String, archiveCache: String?, memo: ContentCache.Use?, counters: BuildCounters = .none) {
        self.siteRoot = siteRoot
        self.archiveCache = archiveCache ?? CacheLayout(siteRoot: siteRoot).bundles
        self.memo = memo
        self.counters = counters
    }

    /// The content and all diagnostics; the content is only usable when no diagnostic is an error.
    public func load() -> (content: SiteContent, diagnostics: [Diagnostic]) {
        var notices: [ContentCache.Notice] = []
        return load(notices: &notices)
    }

    /// Loads, telling in `notices` where the content cache could not be used as it was.
    package func load(notices: inout [ContentCache.Notice]) -> (content: SiteContent, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let content = SourceFile(root: siteRoot, relative: "content")
        if !TextFile.isDirectory(content.absolutePath) {
            diagnostics.append(.error(.missingFile("content/ folder (is --site pointing at the site folder?)"),
                                      at: SourceLocation("content")))
        }
        let config = SiteConfigLoader.load(content.appending("site.yaml"), diagnostics: &diagnostics)
        let machines = loadMachines(content.appending("machines"), config: config, notices: &notices,
                                    diagnostics: &diagnostics)
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

    private func loadMachines(_ folder: SourceFile, config: SiteConfig, notices: inout [ContentCache.Notice],
                              diagnostics: inout [Diagnostic]) -> [Machine] {
        let loader = MachineLoader(community: CommunityLoader(limits: config.limits), counters: counters)
        var cache: ContentCache?
        if let memo {
            // Loading a bundle reads site.yaml's limits; a moved site names other files.
            var key = Fingerprint()
            key.add(TeardownVersion.build)
            key.add(siteRoot)
            key.add(config.source)
            let (opened, notice) = ContentCache.open(memo.folder, key: key.digest, counters: counters)
            cache = opened
            if let notice { notices.append(notice) }
        }
        let entries = TextFile.list(folder, diagnostics: &diagnostics)
        let names = entries.map(\.name)
        let folders = Set(entries.filter(\.isDirectory).map(\.name))
        let bundles = names.compactMap { name in
            folders.contains(name) ? name : name.hasSuffix(".zip") ? String(name.dropLast(4)) : nil
        }
        TextFile.reportCaseTwins(bundles, in: folder, diagnostics: &diagnostics)
        // Bundles are independent, so they load in parallel; results keep folder order.
        let results = ParallelMap.map(names) { name -> (Machine?, String?, [Diagnostic], ContentCache.Notice?) in
            var local: [Diagnostic] = []
            let entry = folder.appending(name)
            if folders.contains(name) {
                guard let cache, let memo else { return (loader.load(entry, diagnostics: &local), nil, local, nil) }
                // A bundle without a settled signature (a comment just filed) is read, but not kept.
                let signature = memo.signatures[name]
                var notice: ContentCache.Notice?
                if let signature {
                    let (found, problem) = cache.lookup(name, folder: entry.absolutePath, signature: signature) {
                        var ignored: [Diagnostic] = []
                        return loader.load(entry, diagnostics: &ignored)
                    }
                    if let (machine, diagnostics) = found { return (machine, nil, diagnostics, nil) }
                    notice = problem
                }
                let parts = memo.parts(name)
                let machine = loader.load(entry, stored: cache.storedParts(name, folder: entry.absolutePath, current: parts),
                                          diagnostics: &local)
                if let signature, let machine, !local.hasErrors {
                    cache.store(name, signature: signature, parts: parts, machine: machine, diagnostics: local)
                }
                return (machine, nil, local, notice)
            }
            guard entry.pathExtension == "zip", FileSystem.isRegularFile(entry.absolutePath) else {
                local.append(.warning(.invalidValue(key: "machines",
                                                    reason: "'\(name)' is neither a bundle folder nor a .zip of one and is ignored"),
                                      at: entry.location()))
                return (nil, nil, local, nil)
            }
            guard !folders.contains(entry.stem) else {
                local.append(.error(.bundleTwice(entry.stem), at: entry.location()))
                return (nil, nil, local, nil)
            }
            guard TextFile.isValidName(entry.stem) else {
                local.append(.error(.invalidName(entry.stem), at: entry.location()))
                return (nil, nil, local, nil)
            }
            let archive = BundleArchive(file: entry, cache: archiveCache, maxBytes: config.limits.bundleMaxBytes)
            guard let (unpacked, key) = archive.unpack(diagnostics: &local) else { return (nil, nil, local, nil) }
            return (loader.load(unpacked, diagnostics: &local), key, local, nil)
        }
        diagnostics += results.flatMap(\.2)
        notices += results.compactMap(\.3)
        cache?.prune(keeping: folders)
        BundleArchive.prune(archiveCache, keeping: Set(results.compactMap(\.1)))
        return results.compactMap(\.0)
    }
}
