import Foundation
import TeardownThemes
import TeardownBase
import TeardownContent
import TeardownMedia

/// Runs the pipeline as named, timed steps (`BuildStep`): check inputs -> load -> images ->
/// plan -> fingerprint -> render what changed -> index for search -> publish.
public struct SiteBuilder: Sendable {
    /// What a build did, for the command line to report.
    public struct Report: Sendable {
        /// Pages and copied files of the site.
        public let pages: Int
        public let files: Int
        /// Outputs written by this build; the rest were carried over unchanged.
        public let written: Int
        /// Outputs of content that is gone.
        public let removed: Int
        public let warnings: [Diagnostic]
        public let output: String
        /// Images made by this build; the others came from the cache.
        public var imagesProcessed = 0
        /// Time the image stage took, cache lookups included.
        public var imageSeconds = 0.0
        /// Machines whose units this build digested; the others' digests were carried from the build store.
        public var machinesDigested = 0
        /// Each step's time, in pipeline order.
        public var timings: [BuildTiming] = []
        /// One line each where a cache could not be used as it was, so the build read everything again.
        public var notices: [String] = []
        /// Nothing changed since the published build, so nothing was published.
        public var unchanged: Bool { written == 0 && removed == 0 }
    }

    public let siteRoot: String
    public let output: String
    /// Overrides site.yaml's base_url (canonical links only: page links are relative).
    public let baseURL: String?
    /// Renders every output even where the manifest says it is up to date.
    public let full: Bool

    /// The git-ignored folder for build manifests and caches; <site>/.teardown-cache by default.
    public let cacheFolder: String
    /// Whether to look for Pagefind; `.notInstalled` builds as if it were missing.
    public let pagefind: PagefindLookup
    /// Where the build counts its own work (parts read, images looked up...); nowhere by default.
    public let counters: BuildCounters

    public enum PagefindLookup: Sendable {
        case automatic
        case notInstalled
    }

    public init(siteRoot: String, output: String? = nil, baseURL: String? = nil, full: Bool = false,
                cacheFolder: String? = nil, pagefind: PagefindLookup = .automatic, counters: BuildCounters = .none) {
        self.pagefind = pagefind
        self.counters = counters
        // One site has one set of caches however it is named: `teardown build` run in the site's
        // folder and a scheduled `teardown sync --site /srv/site` share them.
        let siteRoot = URL(fileURLWithPath: siteRoot).standardizedFileURL.path
        self.siteRoot = siteRoot
        let output = output ?? (siteRoot as NSString).appendingPathComponent("public")
        self.output = URL(fileURLWithPath: output).standardizedFileURL.path
        self.baseURL = baseURL
        self.full = full
        self.cacheFolder = cacheFolder ?? CacheLayout(siteRoot: siteRoot).root
    }

    /// Where each store and cache of this build lives.
    package var cache: CacheLayout { CacheLayout(root: cacheFolder) }

    /// Where `teardown serve` builds when not told: in the site's cache folder, apart from public/.
    public static func previewOutput(siteRoot: String) -> String {
        CacheLayout(siteRoot: siteRoot).preview
    }

    /// Loads and validates the site and its theme, writing nothing.
    public func check() -> [Diagnostic] {
        var notices: [ContentCache.Notice] = []
        var (prepared, diagnostics) = prepare(memo: nil, notices: &notices)
        // Broken links in the manuals are found while rendering their Markdown.
        if let (content, _) = prepared { _ = ManualSet(content, diagnostics: &diagnostics) }
        return diagnostics.sortedByLocation()
    }

    /// Brings the output folder up to date with the content, rendering only outputs whose
    /// inputs changed; on any error, the output is left as it was.
    ///
    /// `progress` is told how far the long stages have got: images, pages and the search index.
    ///
    /// `changed` names files or folders (absolute paths) known to have changed since the last
    /// build, such as what inotify reported: the build then updates the inputs snapshot that
    /// build stored at just those paths, instead of walking every input. It must name every
    /// change since then; without a stored snapshot it walks anyway. `inputs` is a walk taken
    /// earlier by `walkInputs` (sync reviews against it), to which `changed` is applied.
    @discardableResult
    public func build(inputs: BuildInputs? = nil, changed: [String]? = nil,
                      progress: BuildProgress.Handler? = nil) throws(BuildFailure) -> Report {
        // One build of an output at a time: `teardown serve` rebuilding while `teardown sync`
        // builds the same site would otherwise swap each other's folders mid-way.
        let lockPath = cache.output(output).lock
        let lock: Int32
        do {
            try FileManager.default.createDirectory(atPath: (lockPath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            lock = try FileSystem.lock(lockPath)
        } catch {
            throw BuildFailure([.error(.outputFailed(reason: "cannot lock \(lockPath): \(error)"), at: SourceLocation(output))])
        }
        defer { FileSystem.unlock(lock) }
        return try buildHoldingLock(inputs: inputs, changed: changed, progress: progress)
    }

    /// Looks at the inputs now: sync reviews submissions against what this finds, then hands
    /// it to its build with the paths it filed, so the inputs are looked at once. Every input
    /// is `stat`ed against the snapshot the last build of this output stored, and only what
    /// differs is walked (`InputSnapshot.current`); with no stored snapshot, every input is walked.
    public func walkInputs() -> BuildInputs {
        let key = settingsKey(pagefind: try? locatePagefind().get())
        // Read only: a dry run writes nothing, and a damaged store is the build's to mend and report.
        if !full, let (bytes, signatures) = BuildStore.reading(cache.output(output).store)?.storedInputs(),
           let (snapshot, unchanged) = InputSnapshot.current(stored: bytes, signatures: signatures, roots: inputRoots, key: key) {
            return BuildInputs(snapshot: snapshot, unchanged: unchanged)
        }
        return BuildInputs(snapshot: InputSnapshot.take(roots: inputRoots, key: key, counters: counters))
    }

    private func locatePagefind() -> Result<Pagefind, Pagefind.Unavailable> {
        pagefind == .automatic ? Pagefind.locate(remembered: cache.pagefindLocation)
            : .failure(Pagefind.Unavailable(reason: "Pagefind is not installed"))
    }

    /// The pipeline, one named and timed step a line (`teardown build --timings` prints them).
    private func buildHoldingLock(inputs walked: BuildInputs?, changed: [String]?,
                                  progress: BuildProgress.Handler?) throws(BuildFailure) -> Report {
        var clock = StepClock(output: output)
        let pagefind = locatePagefind()
        let key = settingsKey(pagefind: try? pagefind.get())
        // The store is opened first: it holds the snapshot of the inputs the check compares with.
        let opened = openStore()
        let (inputs, signatures) = try clock.run(.inputs) { () -> (InputCheck, InputSnapshot.BundleSignatures?) in
            let inputs = checkInputs(key: key, walked: walked, changed: changed, store: opened?.0)
            return (inputs, inputs.snapshot?.bundleSignatures())
        }
        if case .unchanged(let record) = inputs {
            return Report(pages: record.pages, files: record.files, written: 0, removed: 0, warnings: record.warnings,
                          output: output, timings: clock.timings)
        }
        // The image cache's index is read and decoded while the content loads: it was a fifth of
        // the image step in a one-comment sync at 10,000 parts, and needs nothing the load makes.
        let imageFolder = cache.images
        let imageCache = Prefetch { [counters] in ImageCache(root: imageFolder, counters: counters) }
        let (loaded, theme, notices) = try clock.run(.load) { try load(inputs.snapshot, signatures?.settled) }
        clock.warnings = loaded.warnings
        let (content, images) = try clock.run(.images) {
            try processImages(loaded, cache: imageCache.value, signatures: full ? [:] : signatures?.settled ?? [:],
                              progress: progress)
        }
        clock.warnings = images.warnings
        var site = try clock.run(.plan) {
            try plan(content, images: images, theme: theme, pagefind: pagefind, signatures: signatures?.all ?? [:])
        }
        site.notices = notices.map(\.description)
        clock.warnings = site.warnings
        var outputs = try clock.run(.fingerprint) {
            try fingerprint(site, signatures: full ? [:] : signatures?.settled ?? [:], opened: opened)
        }
        if let notice = outputs.notice { site.notices.append(notice.rawValue) }
        if outputs.upToDate {
            try clock.run(.publish) { remember(inputs.snapshot, site: site, store: outputs.store) }
            return report(site, outputs, written: 0, removed: 0, timings: clock.timings)
        }
        let written = try clock.run(.render) { try render(site, &outputs, progress: progress) }
        try clock.run(.index) {
            try index(site, &outputs, progress: progress)
            try renderSearchPage(site, &outputs)
        }
        let removed = try clock.run(.publish) { () throws -> Int in
            try outputs.publisher.publish({ tree, publishedTree in
                BuildStore.Publish(tree: tree, outputs: outputs.target, previous: outputs.spare, rendered: outputs.rendered,
                                   publishedTree: publishedTree, published: outputs.published, changes: outputs.changes,
                                   readsKnown: outputs.readsKnown, current: outputs.units.computed,
                                   changedUnits: outputs.changedUnits, bundles: outputs.bundles)
            }, store: outputs.store)
            remember(inputs.snapshot, site: site, store: outputs.store)
            // Files of the search index come and go with it; the report counts the site's own outputs.
            return outputs.published == nil ? 0
                : outputs.changes.filter { outputs.target[$0] == nil && !$0.hasPrefix(Self.indexPrefix) }.count
        }
        return report(site, outputs, written: written, removed: removed, timings: clock.timings)
    }

    private func report(_ site: PlannedSite, _ outputs: Outputs, written: Int, removed: Int, timings: [BuildTiming]) -> Report {
        Report(pages: site.plan.pages.count, files: site.plan.copies.count, written: written, removed: removed,
               warnings: site.warnings, output: output, imagesProcessed: site.images.processed,
               imageSeconds: timings.first { $0.step == .images }?.seconds ?? 0,
               machinesDigested: outputs.units.computedMachines.count, timings: timings, notices: site.notices)
    }

    // MARK: The steps

    /// Whether the inputs are as the last build found them, with the published tree unchanged too.
    private func checkInputs(key: ContentDigest, walked: BuildInputs?, changed: [String]?, store: BuildStore?) -> InputCheck {
        let tree = FileSystem.identity(of: output)?.description
        let roots = inputRoots
        let stored = { store?.inputs().flatMap { InputSnapshot.stored($0, roots: roots, key: key) } }
        // Nothing filed into inputs that were all as the last build recorded them: a sync of
        // an empty inbox compared every entry of both snapshots (0.2 s at 10,000 parts).
        if !full, let walked, walked.snapshot?.key == key, changed?.isEmpty ?? true, let record = walked.unchanged,
           record.tree == tree {
            return .unchanged(record)
        }
        if !full, let walked, walked.snapshot?.key == key, let snapshot = walked.snapshot?.updating(changed ?? []) {
            // Paths the caller wrote are a change: reading the stored snapshot back to compare
            // took a tenth of a one-comment sync. (Were they no change after all, the pipeline
            // finds every output up to date and publishes nothing.)
            if let changed, !changed.isEmpty { return .changed(snapshot) }
            if let (stored, record) = stored(), record.tree == tree, stored.sameEntries(as: snapshot) {
                return .unchanged(record)
            }
            return .changed(snapshot)
        }
        if !full, let changed, let (stored, record) = stored(), record.tree == tree, let snapshot = stored.updating(changed) {
            // Events that touched no input (an editor's hidden swap file) leave the site as it was.
            return snapshot.sameEntries(as: stored) ? .unchanged(record) : .changed(snapshot)
        }
        // The published tree is compared first: a snapshot of another tree is not worth
        // checking against the disk, which stats every input.
        if !full {
            let check = store?.inputs().flatMap { bytes in
                InputSnapshot.check(bytes, roots: roots, key: key, tree: { $0 == tree }) { refreshed in
                    // Losing the refresh costs only time.
                    if let (snapshot, record) = InputSnapshot.stored(refreshed, roots: roots, key: key) {
                        try? store?.storeInputs(snapshot, record: record, whole: true, counters: counters)
                    }
                }
            }
            switch check {
            case .unchanged(let record)?:
                return .unchanged(record)
            case .changed(let paths, let stored)?:
                // The check found what differs: looked at again, those paths bring the stored
                // snapshot up to date without a second walk (an edited description cost a check
                // and then a walk, a quarter of a second at 10,000 parts).
                if let snapshot = stored.updating(paths) { return .changed(snapshot) }
            case nil:
                break
            }
        }
        // Taken before anything is read, so an edit made during the build shows as a change next time.
        return .changed(InputSnapshot.take(roots: inputRoots, key: key, counters: counters))
    }

    /// Reads the site, taking unchanged bundles from the content cache when the snapshot vouches for them.
    private func load(_ snapshot: InputSnapshot?, _ signatures: [String: ContentDigest]?) throws(BuildFailure)
        -> (Loaded<SiteContent>, Theme, [ContentCache.Notice]) {
        var notices: [ContentCache.Notice] = []
        let parts = InputSnapshot.PartSignatures(snapshot)
        let memo = full ? nil : signatures.map { signatures in
            ContentCache.Use(folder: cache.content, signatures: signatures, parts: { parts($0) })
        }
        let (prepared, diagnostics) = prepare(memo: memo, notices: &notices)
        guard let (content, theme) = prepared, !diagnostics.hasErrors else { throw BuildFailure(diagnostics) }
        return (Loaded(value: content, warnings: diagnostics), theme, notices)
    }

    private func processImages(_ loaded: Loaded<SiteContent>, cache: ImageCache, signatures: [String: ContentDigest],
                               progress: BuildProgress.Handler?) throws(BuildFailure) -> (SiteContent, Loaded<ProcessedImages>) {
        let config = loaded.value.config
        let images = ImageProcessor(settings: config.photos, maxPixels: config.limits.photoMaxPixels, cache: cache)
            .process(loaded.value, signatures: signatures, progress: progress)
        let diagnostics = loaded.warnings + images.diagnostics
        guard !diagnostics.hasErrors else { throw BuildFailure(diagnostics) }
        // A photo that cannot be published leaves no trace: no page, no gallery entry, no count.
        let content = loaded.value.keepingPhotos { images.photos[$0.file.absolutePath] != nil }
        return (content, Loaded(value: images, warnings: diagnostics))
    }

    private func plan(_ content: SiteContent, images: Loaded<ProcessedImages>, theme: Theme,
                      pagefind: Result<Pagefind, Pagefind.Unavailable>, signatures: [String: ContentDigest]) throws(BuildFailure) -> PlannedSite {
        var diagnostics = images.warnings
        // The index is made on one core while the downloads are found and a changed machine's is
        // zipped, also on one: one after the other, each left a core idle (a fifth of the plan
        // step in a one-comment sync at 10,000 parts).
        let indexed = Prefetch { SiteIndex(content) }
        let manuals = ManualSet(content, diagnostics: &diagnostics)
        let downloads: [String: MachineDownload]
        do throws(BundleDownloads.Failure) {
            downloads = try BundleDownloads(cache: cache.downloads, counters: counters).make(content, images: images.value, signatures: signatures)
        } catch {
            // The cache failed, not the output: the message names the cache's folder.
            let downloads = cache.downloads
            throw BuildFailure(diagnostics + [.error(.cacheFailed(reason: error.description + (error.noSpace ? ErrorText.noSpaceHint() : "")),
                                                     at: SourceLocation(downloads))])
        }
        let index = indexed.value
        let sitePlan = SitePlan(content: content, theme: theme, images: images.value, index: index, downloads: downloads)
        let search: SearchAvailability
        switch (content.config.search, pagefind) {
        case (false, _): search = .unavailable("search is turned off for this site")
        case (true, .success):
            search = .available(SearchShards(machines: content.machines, pages: sitePlan.pages.map(\.page),
                                             requested: content.config.searchShards))
        case (true, .failure(let unavailable)):
            search = .unavailable("this site was built without a search index")
            diagnostics.append(.warning(.searchUnavailable(reason: unavailable.reason), at: content.config.location))
        }
        var base = baseURL ?? content.config.baseURL
        if !base.hasSuffix("/") { base += "/" }
        return PlannedSite(content: content, theme: theme, images: images.value, manuals: manuals, downloads: downloads,
                           index: index, search: search, indexer: search.isAvailable ? try? pagefind.get() : nil,
                           baseURL: base, plan: sitePlan,
                           warnings: diagnostics.filter { $0.severity == .warning }.sortedByLocation())
    }

    /// Every output's digest, and what the published and spare trees hold. A page is carried
    /// over when every unit it read last time has the digest it had then; the others are
    /// rendered. Copied files are fingerprinted by their source.
    private func fingerprint(_ site: PlannedSite, signatures: [String: ContentDigest],
                             opened: (BuildStore, BuildStore.Notice?)?) throws -> Outputs {
        let publisher = Publisher(output: output, state: cache.output(output))
        let trees = try publisher.recover(opened: opened)
        let published = full ? nil : trees.published
        let readsKnown = published != nil && trees.readsArePublished
        let context = Self.unitContext(site.content)
        let bundleNames = site.content.machines.map(Self.bundleName(of:))
        let carried = !readsKnown ? [] : try Self.carried(site.content, names: bundleNames, signatures: signatures,
                                                               stored: trees.store.bundles(context: context))
        let units = UnitDigests(site, carried: carried)
        // The stored digests of every unit but the carried machines' ones, to find what changed;
        // then only the readers of the units that changed are read from the store.
        var goneSlugs: [String] = []
        let changedUnits = try (readsKnown ? published : nil).map { _ in
            let slugs = Set(site.content.machines.map(\.slug))
            goneSlugs = try trees.store.machineSlugs().subtracting(slugs).sorted()
            let machines = units.computedMachines.map { site.content.machines[$0].slug } + goneSlugs
            let stored = try trees.store.units(keys: UnitDigests.siteKeys,
                                               prefixes: UnitDigests.sitePrefixes + machines.flatMap(UnitDigests.keyPrefixes(ofMachine:)))
            return stored.compactMap { units.computed[$0.key] != $0.value ? $0.key : nil }
                + units.computed.keys.filter { stored[$0] == nil }
        }
        let stale = try changedUnits.map { try trees.store.readers(of: $0) }
        let bundles = BuildStore.Bundles(
            context: context,
            digested: units.computedMachines.compactMap { index in
                signatures[bundleNames[index]].map { (bundleNames[index], site.content.machines[index].slug, $0) }
            },
            unsettled: units.computedMachines.filter { signatures[bundleNames[$0]] == nil }.map { bundleNames[$0] },
            goneSlugs: goneSlugs)
        // Each output's path, worked out once on all cores; the render step picks its outputs by them too.
        let pagePaths = ParallelMap.map(site.plan.pages) { $0.url.outputPath }
        let copied = ParallelMap.map(site.plan.copies) { ($0.url.outputPath, Self.fingerprint(copy: $0)) }
        // The target starts as the published manifest and only what differs is written into it,
        // noted as a change for the later steps: made anew, with every path looked up three
        // times, it was most of this step in a one-comment sync at 10,000 parts.
        var target = published ?? [:]
        var changes = Set<String>()
        // Published outputs the plan has again: when they and the carried search files are all
        // the published ones, nothing is gone and the published paths need no look of their own.
        var kept = 0
        for path in pagePaths {
            let held = published?[path] != nil
            if held { kept += 1 }
            if !held || stale == nil {
                target[path] = Outputs.unrendered
                changes.insert(path)
            }
        }
        // Readers are pages; one no longer planned is taken out below, with everything else gone.
        for path in stale ?? [] where published?[path] != nil {
            target[path] = Outputs.unrendered
            changes.insert(path)
        }
        for (path, digest) in copied {
            let held = published?[path]
            if held != nil { kept += 1 }
            if held != digest {
                target[path] = digest
                changes.insert(path)
            }
        }
        // A shard of the search index changes only when a page it indexes does: every file of
        // it is marked with one digest of those pages, so an unchanged shard is carried over
        // like a page.
        var staleShards: [Outputs.Shard] = []
        var carriedFiles: [String] = []
        if let indexer = site.indexer, let shards = site.search.shards {
            var pages = Array(repeating: [String](), count: shards.shards.count)
            var later = Array(repeating: [String: [String]](), count: shards.shards.count)
            // A discussion's pages are planned one after another (SitePlan): a later page
            // belongs to the first page planned last.
            var firstPage: String?
            for (entry, path) in zip(site.plan.pages, pagePaths) {
                guard let shard = shards.shard(of: entry.page) else { continue }
                pages[shard].append(path)
                switch entry.page {
                case .machine(_, discussionPage: 1), .part(_, _, discussionPage: 1): firstPage = path
                case .machine, .part: if let firstPage { later[shard][firstPage, default: []].append(path) }
                default: break
                }
            }
            let files = Self.shardFiles(published ?? [:], shards: shards)
            for (number, shard) in shards.shards.enumerated() {
                let held = files[number]
                if !held.isEmpty, pages[number].allSatisfy({ target[$0] != Outputs.unrendered }),
                   case let digest = Self.digest(of: shard, pages: pages[number], target, indexer: indexer),
                   held.values.allSatisfy({ $0 == digest }) {
                    carriedFiles += held.keys
                } else {
                    for path in held.keys {
                        target[path] = nil
                        changes.insert(path)
                    }
                    staleShards.append(Outputs.Shard(shard: shard, pages: pages[number], later: later[number]))
                }
            }
        }
        if let published, kept + carriedFiles.count != published.count {
            var planned = Set(pagePaths)
            planned.formUnion(copied.lazy.map(\.0))
            planned.formUnion(carriedFiles)
            for path in published.keys where !planned.contains(path) {
                target[path] = nil
                changes.insert(path)
            }
        }
        // A full build stages against the spare's whole manifest: the published one but at the lag's paths.
        var spare = trees.spare
        if published == nil, case .lagging(let lag)? = spare {
            spare = trees.published.map { published in
                var manifest = published
                for (path, held) in lag { manifest[path] = held }
                return .whole(manifest)
            }
        }
        return Outputs(publisher: publisher, target: target, published: published, spare: spare, changes: changes,
                       pagePaths: pagePaths, copyPaths: copied.map(\.0), units: units,
                       store: trees.store, readsKnown: readsKnown, changedUnits: changedUnits ?? [], bundles: bundles,
                       staleShards: staleShards,
                       notice: trees.notice)
    }

    /// The machines whose units the store holds as they are now: their bundle has the signature
    /// it had when they were digested (a settled one: see `InputSnapshot.BundleSignatures`),
    /// under the same settings.
    private static func carried(_ content: SiteContent, names: [String], signatures: [String: ContentDigest],
                                stored: [String: (slug: String, signature: ContentDigest)]) -> Set<Int> {
        var carried = Set<Int>()
        for (index, machine) in content.machines.enumerated() {
            if let signature = signatures[names[index]], let row = stored[names[index]], row.slug == machine.slug,
               row.signature == signature {
                carried.insert(index)
            }
        }
        return carried
    }

    /// A machine's bundle, as the input snapshot names it.
    private static func bundleName(of machine: Machine) -> String {
        (machine.folder.displayPath as NSString).lastPathComponent
    }

    /// What a machine's units depend on besides its bundle: site.yaml (photo sizes, limits,
    /// Markdown settings) and the versions of what turns images and bundles into outputs.
    private static func unitContext(_ content: SiteContent) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(TeardownVersion.build)
        fingerprint.add(content.config.source)
        fingerprint.add(ImageProcessor.pipelineVersion)
        fingerprint.add(Vips.version)
        fingerprint.add(SVGSanitizer.version)
        fingerprint.add(BundleDownloads.version)
        return fingerprint.digest
    }

    /// A copied file is the same while its source is.
    private static func fingerprint(copy: SitePlan.Copy) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(copy.source)
        // A cached file's path says it all (and linking it changes its ctime).
        if !copy.cached, let stamp = FileSystem.stamp(of: copy.source) {
            fingerprint.add(stamp)
        }
        return fingerprint.digest
    }

    /// One digest of a shard's pages and of the indexer: when it is unchanged, so is the shard.
    private static func digest(of shard: SearchShards.Shard, pages: [String], _ target: [String: ContentDigest],
                               indexer: Pagefind) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(indexer.signature)
        fingerprint.add(shard.folder)
        for page in pages {
            fingerprint.add(page)
            fingerprint.add(target[page] ?? Outputs.unrendered)
        }
        return fingerprint.digest
    }

    /// Readies the spare tree and writes into it every output that changed; returns how many.
    /// Each page rendered gets the digest of its bytes, and the store learns what it read.
    private func render(_ site: PlannedSite, _ outputs: inout Outputs, progress: BuildProgress.Handler?) throws -> Int {
        let spare = try outputs.publisher.openSpare(holding: outputs.spare, store: outputs.store)
        let writes = try outputs.publisher.stage(outputs.target, published: outputs.published, spare: spare,
                                                 changes: outputs.changes)
        let writer = OutputWriter(root: outputs.publisher.spare)
        let pages = zip(site.plan.pages, outputs.pagePaths).filter { writes.contains($0.1) }.map(\.0)
        let copies = zip(site.plan.copies, outputs.copyPaths).filter { writes.contains($0.1) }.map(\.0)
        // Pagefind's files are read only for a build that renders the search page, and not
        // when the first shard is to be indexed again: the page is then rendered after it.
        let rendersSearch = pages.contains { if case .search = $0.page { true } else { false } }
        let source = Self.renderSource(site, searchPreload: rendersSearch && !firstShardStale(site, outputs)
                                           ? Self.searchPreload(site, in: outputs.publisher.spare) : nil)
        let units = outputs.units
        let counter = ProgressCounter(.pages, total: pages.count, handler: progress)
        let rendered = ParallelMap.map(pages) { entry -> (keys: [String], digest: ContentDigest, failure: (any Error)?) in
            let reads = ReadSet()
            let html = PageRenderer(source: source, reads: reads).render(entry.page, at: entry.url)
            let keys = reads.units.map(units.key(of:))
            // Digested here, on every core, rather than page by page after the map.
            let digest = ContentDigest(of: html)
            defer { counter.step() }
            do { try writer.write(html, to: entry.url.outputPath) } catch { return (keys, digest, error) }
            return (keys, digest, nil)
        }
        let failures = rendered.map(\.failure) + ParallelMap.map(copies) { copy -> (any Error)? in
            do {
                // Processed images are linked from the cache: their files are never changed in place.
                if !copy.cached
                    || (try? FileSystem.hardLink(copy.source, to: outputs.publisher.spare + "/" + copy.url.outputPath)) == nil {
                    try writer.copy(from: copy.source, to: copy.url.outputPath)
                }
            } catch { return error }
            return nil
        }
        // The first writer's failure names its file and keeps its error number (a full disk).
        if let failure = failures.compactMap({ $0 }).first { throw failure }
        for (entry, result) in zip(pages, rendered) {
            let path = entry.url.outputPath
            outputs.target[path] = result.digest
            outputs.rendered[path] = result.keys
        }
        return pages.count + copies.count
    }

    private static func renderSource(_ site: PlannedSite, searchPreload: SearchPreload?) -> RenderSource {
        RenderSource(content: site.content, theme: site.theme, images: site.images, manuals: site.manuals,
                     search: site.search, baseURL: site.baseURL, index: site.index,
                     downloads: site.downloads, sitemapPages: site.plan.sitemapPages, searchPreload: searchPreload)
    }

    /// What the first shard's index in `root` tells the search page to fetch early; nil before it has one.
    private static func searchPreload(_ site: PlannedSite, in root: String) -> SearchPreload? {
        guard let first = site.search.shards?.shards.first,
              let entry = FileManager.default.contents(atPath: root + "/" + first.folder + "/pagefind-entry.json")
        else { return nil }
        return SearchPreload(entry: entry, language: site.content.config.language) { name in
            FileManager.default.contents(atPath: root + "/" + first.folder + "/" + name)
        }
    }

    /// Whether this build indexes the first shard again.
    private func firstShardStale(_ site: PlannedSite, _ outputs: Outputs) -> Bool {
        guard let first = site.search.shards?.shards.first else { return false }
        return outputs.staleShards.contains { $0.shard.folder == first.folder }
    }

    /// The search page names the first shard's index files (`SearchPreload`), which are known
    /// only once that shard is indexed: when it was, the page is rendered again.
    private func renderSearchPage(_ site: PlannedSite, _ outputs: inout Outputs) throws {
        guard firstShardStale(site, outputs),
              let entry = site.plan.pages.first(where: { if case .search = $0.page { true } else { false } })
        else { return }
        let spare = outputs.publisher.spare
        let reads = ReadSet()
        let html = PageRenderer(source: Self.renderSource(site, searchPreload: Self.searchPreload(site, in: spare)), reads: reads)
            .render(entry.page, at: entry.url)
        let path = entry.url.outputPath, digest = ContentDigest(of: html)
        try OutputWriter(root: spare).write(html, to: path)
        outputs.target[path] = digest
        outputs.rendered[path] = reads.units.map(outputs.units.key(of:))
        if outputs.published?[path] != digest { outputs.changes.insert(path) }
    }

    /// The published files of each shard, by shard. (One index's folder, `pagefind/`, holds
    /// the files of an earlier build's shards too: they differ in digest, so it is made again.)
    private static func shardFiles(_ published: [String: ContentDigest], shards: SearchShards) -> [[String: ContentDigest]] {
        let prefixes = shards.shards.map { $0.folder + "/" }
        var files = Array(repeating: [String: ContentDigest](), count: prefixes.count)
        for (path, digest) in published where path.hasPrefix(Self.indexPrefix) {
            guard let number = prefixes.firstIndex(where: { path.hasPrefix($0) }) else { continue }
            files[number][path] = digest
        }
        return files
    }

    /// Runs Pagefind over the spare tree for each shard holding a changed page, and adds its files to the outputs.
    private func index(_ site: PlannedSite, _ outputs: inout Outputs, progress: BuildProgress.Handler?) throws {
        guard let indexer = site.indexer, !outputs.staleShards.isEmpty else { return }
        let publisher = outputs.publisher, spare = publisher.spare
        let counter = ProgressCounter(.search, total: outputs.staleShards.count, handler: progress)
        let target = outputs.target
        // Pagefind keeps about one and a half cores busy, less while it writes its files, so
        // shards are indexed two at a time (or half as many as there are cores): on two
        // cores that took a 4,000-part catalog's index from 5.8 to 3.2 s.
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount / 2)
        let indexed = ParallelMap.map(outputs.staleShards, width: width) { stale -> Result<ContentDigest, Pagefind.Failure> in
            defer { counter.step() }
            let digest = Self.digest(of: stale.shard, pages: stale.pages, target, indexer: indexer)
            return Result { () throws(Pagefind.Failure) in
                // What staging left of the shard's old files: they were not in the target.
                do { try FileSystem.removeTree(spare + "/" + stale.shard.folder) } catch {
                    throw Pagefind.Failure(description: "cannot clear \(stale.shard.folder): \(error)")
                }
                try Self.index(stale, from: spare, gatheredIn: publisher.pagesFolder(forIndex: stale.shard.folder), with: indexer)
                return digest
            }
        }
        for (stale, result) in zip(outputs.staleShards, indexed) {
            let digest: ContentDigest
            do { digest = try result.get() } catch {
                throw BuildFailure(site.warnings + [.error(.searchFailed(reason: error.description), at: site.content.config.location)])
            }
            _ = FileSystem.walk(spare + "/" + stale.shard.folder) { relative, status in
                if !status.isDirectory {
                    outputs.target[stale.shard.folder + "/" + relative] = digest
                    outputs.changes.insert(stale.shard.folder + "/" + relative)
                }
            }
        }
    }

    /// Pagefind indexes a folder, walking all of it and reading every HTML file its glob
    /// matches: each shard walked the whole spare tree (0.9 s of a 3,100-page shard's 5.8 s
    /// at 100,000 parts) and read pages no shard indexes, such as galleries and a manual's
    /// print page. So a shard's pages are hard-linked into a folder of their own, at the same
    /// paths (so the URLs Pagefind records are the site's), and Pagefind indexes that folder
    /// into the spare tree. (A kill meanwhile leaves the folder behind; the publisher's
    /// recovery removes it.)
    private static func index(_ stale: Outputs.Shard, from spare: String, gatheredIn pages: String,
                              with indexer: Pagefind) throws(Pagefind.Failure) {
        do {
            try FileSystem.removeTree(pages)
            var made = Set<String>()
            var joined = Set<String>()
            for (first, later) in stale.later {
                guard let html = FileManager.default.contents(atPath: spare + "/" + first),
                      case let pieces = later.compactMap({ FileManager.default.contents(atPath: spare + "/" + $0) }),
                      pieces.count == later.count,
                      let document = SearchDocument.joined(first: Array(html), later: pieces.map(Array.init))
                else { continue }
                let folder = (first as NSString).deletingLastPathComponent
                if made.insert(folder).inserted {
                    try FileManager.default.createDirectory(atPath: pages + "/" + folder, withIntermediateDirectories: true)
                }
                try document.withUnsafeBufferPointer { try OutputWriter(root: pages).write($0, to: first) }
                joined.insert(first)
                joined.formUnion(later)
            }
            for page in stale.pages where !joined.contains(page) {
                let folder = (page as NSString).deletingLastPathComponent
                if made.insert(folder).inserted {
                    try FileManager.default.createDirectory(atPath: pages + "/" + folder, withIntermediateDirectories: true)
                }
                try FileSystem.hardLink(spare + "/" + page, to: pages + "/" + page)
            }
        } catch {
            throw Pagefind.Failure(description: "cannot gather the pages of \(stale.shard.folder): \(error)")
        }
        defer { try? FileSystem.removeTree(pages) }
        try indexer.index(pages, into: spare + "/" + stale.shard.folder)
    }

    private static let indexPrefix = Routes.searchIndexFolder + "/"

    /// Where the inputs live: the content, the site's themes and the built-in theme.
    package var inputRoots: [String] {
        [(siteRoot as NSString).appendingPathComponent("content"), (siteRoot as NSString).appendingPathComponent("Themes"),
         DefaultTheme.directory?.path ?? ""]
    }

    /// Everything besides the inputs that shapes the output: the same content built by another
    /// version of Teardown, or for another base URL, is another site.
    private func settingsKey(pagefind: Pagefind?) -> ContentDigest {
        var fingerprint = Fingerprint()
        // Installing or upgrading Pagefind changes the site (its search page) without changing an input.
        fingerprint.add(pagefind?.signature ?? "")
        fingerprint.add(TeardownVersion.build)
        fingerprint.add(baseURL ?? "")
        fingerprint.add(output)
        return fingerprint.digest
    }

    /// Stores what this build read, for the next build to skip loading when nothing changed.
    /// Losing it costs only speed.
    private func remember(_ snapshot: InputSnapshot?, site: PlannedSite, store: BuildStore) {
        guard let snapshot, let tree = FileSystem.identity(of: output)?.description else {
            store.forgetInputs()
            return
        }
        let record = InputSnapshot.Record(tree: tree, pages: site.plan.pages.count, files: site.plan.copies.count,
                                          warnings: site.warnings)
        do { try store.storeInputs(snapshot, record: record, counters: counters) } catch { store.forgetInputs() }
    }

    /// The output's build store, or nil when it cannot be opened (the publish step then says why).
    private func openStore() -> (BuildStore, BuildStore.Notice?)? {
        let state = cache.output(output)
        try? FileManager.default.createDirectory(atPath: state.folder, withIntermediateDirectories: true)
        return try? BuildStore.open(state.store)
    }

    private func prepare(memo: ContentCache.Use?, notices: inout [ContentCache.Notice])
        -> (value: (SiteContent, Theme)?, diagnostics: [Diagnostic]) {
        var (content, diagnostics) = ContentLoader(siteRoot: siteRoot, archiveCache: cache.bundles, memo: memo, counters: counters)
            .load(notices: &notices)
        let theme = Theme.load(siteRoot: siteRoot, config: content.config, diagnostics: &diagnostics)
        guard let theme else { return (nil, diagnostics) }
        return ((content, theme), diagnostics)
    }
}

