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
        let (machines, bundles) = loadMachines(content.appending("machines"), config: config, notices: &notices,
                                               diagnostics: &diagnostics)
        let manual = ManualLoader().load(content.appending("manual"), diagnostics: &diagnostics)
        let slugs = Set(machines.map(\.slug))
        for collection in config.collections {
            // A bundle that is there but did not load has said why at its own file: the
            // collection saying it again would send the reader to site.yaml.
            for slug in collection.machines where !slugs.contains(slug) && !bundles.contains(slug) {
                diagnostics.append(.warning(.invalidValue(key: "machines", reason: "collection '\(collection.slug)' lists '\(slug)', "
                                                              + "which is not a machine; it is left out"),
                                            at: collection.location))
            }
        }
        return (SiteContent(root: siteRoot, config: config, machines: machines, manual: manual), diagnostics)
    }

    /// What loading one entry of machines/ gave: the machine, the key of the archive it was
    /// unpacked from, its diagnostics, and why the content cache could not give it.
    private typealias Loaded = (machine: Machine?, archive: String?, diagnostics: [Diagnostic], notice: ContentCache.Notice?)

    private func loadMachines(_ folder: SourceFile, config: SiteConfig, notices: inout [ContentCache.Notice],
                              diagnostics: inout [Diagnostic]) -> (machines: [Machine], bundles: Set<String>) {
        let loader = MachineLoader(community: CommunityLoader(limits: config.limits), counters: counters, trustsHTML: config.unsafeHTML)
        let cache = openCache(config, notices: &notices)
        let entries = TextFile.list(folder, diagnostics: &diagnostics)
        let names = entries.map(\.name)
        let folders = Set(entries.filter(\.isDirectory).map(\.name))
        let bundles = names.compactMap { name in
            folders.contains(name) ? name : name.hasSuffix(".zip") ? String(name.dropLast(4)) : nil
        }
        TextFile.reportCaseTwins(bundles, in: folder, diagnostics: &diagnostics)
        // Bundles are independent, so they load in parallel; results keep folder order.
        let results = ParallelMap.map(names) { name -> Loaded in
            let entry = folder.appending(name)
            if folders.contains(name) { return loadFolder(entry, named: name, loader: loader, cache: cache) }
            return loadArchive(entry, named: name, folders: folders, loader: loader, maxBytes: config.limits.bundleMaxBytes)
        }
        diagnostics += results.flatMap(\.diagnostics)
        notices += results.compactMap(\.notice)
        cache?.prune(keeping: folders)
        BundleArchive.prune(archiveCache, keeping: Set(results.compactMap(\.archive)))
        return (results.compactMap(\.machine), Set(bundles))
    }

    /// The content cache, for the key this site's loads have: loading a bundle reads site.yaml's
    /// limits, and a moved site names other files.
    private func openCache(_ config: SiteConfig, notices: inout [ContentCache.Notice]) -> ContentCache? {
        guard let memo else { return nil }
        let key = ContentCache.Key(version: TeardownVersion.current, build: TeardownVersion.build, site: siteRoot,
                                   settings: config.source)
        let (opened, notice) = ContentCache.open(memo.folder, key: key, counters: counters)
        // A full build reads every bundle anyway: a cache it cannot use is no news.
        if let notice, memo.trusting { notices.append(notice) }
        return opened
    }

    /// A bundle folder: from the content cache when its signature vouches for the entry, else
    /// read (the parts whose folders are unchanged taken as stored) and kept for the next load.
    private func loadFolder(_ entry: SourceFile, named name: String, loader: MachineLoader, cache: ContentCache?) -> Loaded {
        var local: [Diagnostic] = []
        guard let cache, let memo else { return (loader.load(entry, diagnostics: &local), nil, local, nil) }
        // A bundle without a settled signature (a comment just filed) is read, and kept only if
        // it settles by the end of the build (`RacyKeeps`).
        let signature = memo.signatures[name]
        var notice: ContentCache.Notice?
        if let signature, memo.trusting {
            let (found, problem) = cache.lookup(name, folder: entry.absolutePath, signature: signature) {
                var ignored: [Diagnostic] = []
                return loader.load(entry, diagnostics: &ignored)
            }
            if let (machine, diagnostics) = found { return (machine, nil, diagnostics, nil) }
            notice = problem
        }
        let parts = memo.parts(name)
        let stored = memo.trusting ? cache.storedParts(name, folder: entry.absolutePath, current: parts) : nil
        let machine = loader.load(entry, stored: stored, diagnostics: &local)
        if signature == nil, let racy = memo.racy[name], let keeps = memo.racyKeeps, let machine, !local.hasErrors {
            keeps.hold(name, cache: cache, signature: racy, parts: parts, machine: machine, diagnostics: local) {
                var ignored: [Diagnostic] = []
                return loader.load(entry, diagnostics: &ignored)
            }
        }
        if let signature, let machine, !local.hasErrors {
            // Kept with its text left in the entry, read again when a page shows it.
            let kept = cache.store(name, signature: signature, parts: parts, machine: machine, diagnostics: local) {
                var ignored: [Diagnostic] = []
                return loader.load(entry, diagnostics: &ignored)
            }
            return (kept ?? machine, nil, local, notice)
        }
        return (machine, nil, local, notice)
    }

    /// A `.zip` of a bundle, unpacked into the archive cache and loaded from there.
    private func loadArchive(_ entry: SourceFile, named name: String, folders: Set<String>, loader: MachineLoader,
                             maxBytes: Int) -> Loaded {
        var local: [Diagnostic] = []
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
        let archive = BundleArchive(file: entry, cache: archiveCache, maxBytes: maxBytes)
        guard let (unpacked, key) = archive.unpack(diagnostics: &local) else { return (nil, nil, local, nil) }
        return (loader.load(unpacked, diagnostics: &local), key, local, nil)
    }
}
