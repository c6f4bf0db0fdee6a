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
        /// The inputs as this build found and stored them, for the next build of a process that
        /// watches them (`inputs(changed:after:)`); nil when the build found nothing changed.
        package var inputs: InputSnapshot? = nil
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
    /// Whether the build leaves its values unfreed for a process that exits after it
    /// (`KeptUntilExit`): for the command line's one-shot commands only.
    public var exitsAfter = false

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
    /// `pagesPublished` is called between the two publishes of a build that publishes its pages
    /// before it re-indexes them for search, with this output's build lock held (a resident
    /// publisher deploys the pages then).
    ///
    /// `changed` names files or folders (absolute paths) known to have changed since the last
    /// build, such as what inotify reported: the build then updates the inputs snapshot that
    /// build stored at just those paths, instead of walking every input. It must name every
    /// change since then; without a stored snapshot it walks anyway. `inputs` is a walk taken
    /// earlier by `walkInputs` (sync reviews against it), to which `changed` is applied.
    @discardableResult
    public func build(inputs: BuildInputs? = nil, changed: [String]? = nil, progress: BuildProgress.Handler? = nil,
                      pagesPublished: () -> Void = {}) throws(BuildFailure) -> Report {
        // One build of an output at a time: `teardown serve` rebuilding while `teardown sync`
        // builds the same site would otherwise swap each other's folders mid-way.
        let lockPath = cache.output(output).lock
        let lock: Int32
        do {
            try FileManager.default.createDirectory(atPath: (lockPath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            lock = try FileSystem.lock(lockPath)
        } catch {
            throw BuildFailure([.error(.outputFailed(reason: "cannot lock \(lockPath): \(ErrorText.text(error))"), at: SourceLocation(output))])
        }
        defer { FileSystem.unlock(lock) }
        let store = cache.output(output).store
        do {
            // A full build trusts nothing stored, so it starts from a new store.
            if full { try BuildStore.remove(store) }
            return try buildHoldingLock(inputs: inputs, changed: changed, progress: progress, pagesPublished: pagesPublished)
        } catch let failure as BuildFailure where failure.cause is ImageCache.DamagedRows {
            // Nothing was published: the build starts over once, and looks those bundles' images up again.
            var report = try buildHoldingLock(inputs: nil, changed: nil, progress: progress)
            report.notices.append((failure.cause as? ImageCache.DamagedRows)?.description ?? "")
            return report
        } catch let failure as BuildFailure where failure.cause is BuildStore.Damaged {
            // Damage found by any read or write of the store: it is set aside, and the build
            // starts over once from a new one, walking every input and rendering every page.
            do { try BuildStore.setAside(store) } catch { throw failure }
            var report = try buildHoldingLock(inputs: nil, changed: nil, progress: progress)
            report.notices.append(BuildStore.Notice.damaged.rawValue)
            return report
        } catch let failure as BuildFailure {
            throw failure
        } catch {
            throw BuildFailure([.error(.outputFailed(reason: ErrorText.text(error)), at: SourceLocation(store))])
        }
    }

    /// Looks at the inputs now: sync reviews submissions against what this finds, then hands
    /// it to its build with the paths it filed, so the inputs are looked at once. Every input
    /// is `stat`ed against the snapshot the last build of this output stored, and only what
    /// differs is walked (`InputSnapshot.current`); with no stored snapshot, every input is walked.
    public func walkInputs() -> BuildInputs {
        // Which Pagefind, if any, is part of the key: its absence is a value, not a failure.
        let key = settingsKey(pagefind: try? locatePagefind().get())
        // Written to by nothing here: a dry run writes nothing, and a damaged store is the build's
        // to mend and report.
        let store = full ? nil : BuildStore.existing(cache.output(output).store)?.counting(counters)
        if store != nil { counters.count(.storesOpened) }
        if let (snapshot, unchanged, settled) = store?.checkedInputs(roots: inputRoots, key: key, againstDisk: true)?.current() {
            return BuildInputs(snapshot: snapshot, store: store, unchanged: unchanged, settled: settled)
        }
        return BuildInputs(snapshot: InputSnapshot.take(roots: inputRoots, key: key, counters: counters), store: store)
    }

    func locatePagefind() -> Result<Pagefind, Pagefind.Unavailable> {
        pagefind == .automatic ? Pagefind.locate(remembered: cache.pagefindLocation)
            : .failure(Pagefind.Unavailable(reason: "Pagefind is not installed"))
    }

    /// The pipeline, one named and timed step a line (`teardown build --timings` prints them).
    private func buildHoldingLock(inputs walked: BuildInputs?, changed: [String]?, progress: BuildProgress.Handler?,
                                  pagesPublished: () -> Void = {}) throws(BuildFailure) -> Report {
        var clock = StepClock(output: output)
        let pagefind = locatePagefind()
        // The settings key records which Pagefind, if any: its absence is a value, not a failure.
        let key = settingsKey(pagefind: try? pagefind.get())
        // The store is opened first (once: sync's walk opened it already): it holds the snapshot
        // of the inputs the check compares with.
        let opened = store(walked: walked, progress: progress)
        let (inputs, signatures) = try clock.run(.inputs) { () -> (InputCheck, InputSnapshot.BundleSignatures?) in
            let inputs = checkInputs(key: key, walked: walked, changed: changed, store: opened?.0)
            return (inputs, inputs.snapshot?.bundleSignatures())
        }
        if case .unchanged(let record) = inputs {
            return Report(pages: record.pages, files: record.files, written: 0, removed: 0, warnings: record.warnings,
                          output: output, timings: clock.timings)
        }
        // The image cache's index is read and decoded while the content loads: it needs nothing
        // the load makes.
        let imageFolder = cache.images
        let imageCache = Prefetch { [counters] in ImageCache(root: imageFolder, counters: counters) }
        let racyKeeps = RacyKeeps()
        let (loaded, theme, notices) = try clock.run(.load) { try load(inputs.snapshot, signatures, racyKeeps: racyKeeps) }
        clock.warnings = loaded.warnings
        let (content, images) = try clock.run(.images) {
            try processImages(loaded, cache: imageCache.value, signatures: signatures?.settled ?? [:], progress: progress)
        }
        clock.warnings = images.warnings
        var (site, outputs, deferred) = try planAndFingerprint(content, images: images, theme: theme, pagefind: pagefind,
                                                     signatures: signatures, opened: opened, clock: &clock)
        site.notices = notices.map(\.description)
        clock.warnings = site.warnings
        if let notice = outputs.notice { site.notices.append(notice.rawValue) }
        if outputs.upToDate {
            try clock.run(.publish) { remember(inputs.snapshot, site: site, outputs: outputs, racyKeeps: racyKeeps, published: false) }
            return report(site, outputs, written: 0, removed: 0, timings: clock.timings, inputs: inputs.snapshot)
        }
        let written = try clock.run(.render) { try render(site, &outputs, progress: progress) }
        if !outputs.answersAfterPages { try clock.run(.firstAnswer) { try firstAnswer(site, &outputs) } }
        if deferred.isEmpty {
            try clock.run(.index) {
                try index(site, &outputs, progress: progress)
                try renderSearchPage(site, &outputs)
            }
        }
        if let damaged = imageCache.value.damagedCarriedRows() {
            throw BuildFailure([.error(.outputFailed(reason: damaged.description), at: SourceLocation(imageFolder))]).caused(by: damaged)
        }
        let removed = try clock.run(.publish) { () throws -> Int in
            try publish(outputs, searchLayout: deferred.isEmpty ? ShardMarks.layout(site) : nil)
            if deferred.isEmpty { remember(inputs.snapshot, site: site, outputs: outputs, racyKeeps: racyKeeps) }
            return Self.removedCount(outputs)
        }
        let indexed = deferred.isEmpty ? nil
            : try publishIndex(site, deferred: deferred, after: outputs, clock: &clock, progress: progress,
                               pagesPublished: pagesPublished) {
                remember(inputs.snapshot, site: site, outputs: outputs, racyKeeps: racyKeeps)
            }
        if exitsAfter { KeptUntilExit.keep(site, outputs, indexed as Any, loaded, images) }
        return report(site, outputs, written: written, removed: removed, timings: clock.timings, inputs: inputs.snapshot)
    }

    /// The plan and fingerprint steps: machines the store vouches for are carried, unless the
    /// fingerprint finds that will not do and plans more of them. The pages first, the index
    /// after: the shards to index again are returned when they wait for a second publish (`deferIndex`).
    private func planAndFingerprint(_ content: SiteContent, images: Loaded<ProcessedImages>, theme: Theme,
                                    pagefind: Result<Pagefind, Pagefind.Unavailable>,
                                    signatures: InputSnapshot.BundleSignatures?, opened: (BuildStore, BuildStore.Notice?)?,
                                    clock: inout StepClock) throws(BuildFailure) -> (PlannedSite, Outputs, [Outputs.Shard]) {
        let settled = signatures?.settled ?? [:]
        let planned = try clock.run(.plan) { () throws -> PlannedSite in
            let carried = try carriedMachines(content, images: images.value, signatures: settled, store: opened?.0)
            return try plan(content, images: images, theme: theme, pagefind: pagefind, signatures: signatures?.all ?? [:],
                            carried: carried, store: opened?.0)
        }
        clock.warnings = planned.warnings
        return try clock.run(.fingerprint) {
            // A full build carries nothing, but records the signatures the next build carries by.
            let (site, fingerprinted) = try fingerprint(planned, signatures: settled, opened: opened,
                                                        downloadSignatures: signatures?.all ?? [:])
            var outputs = fingerprinted
            let deferred = try deferIndex(&outputs)
            if !deferred.isEmpty { try deferFirstAnswer(site, &outputs) }
            return (site, outputs, deferred)
        }
    }

    /// Swaps the spare tree in, recording its outputs and what its pages read.
    func publish(_ outputs: Outputs, searchLayout: String?) throws {
        noteChanges(outputs)
        try outputs.publisher.publish({ tree, publishedTree in
            BuildStore.Publish(tree: tree, outputs: outputs.target, previous: outputs.spare, rendered: outputs.rendered,
                               publishedTree: publishedTree, published: outputs.published, changes: outputs.changes,
                               readsKnown: outputs.readsKnown, current: outputs.units.computed,
                               changedUnits: outputs.changedUnits, bundles: outputs.bundles,
                               firstAnswer: outputs.firstAnswer, searchLayout: searchLayout,
                               shards: searchLayout == nil ? nil : outputs.shardRows, feedToken: outputs.feedToken)
        }, store: outputs.store)
    }

    /// The outputs removed, for the report: files of the search indexes come and go with them,
    /// and are not counted with the site's own.
    private static func removedCount(_ outputs: Outputs) -> Int {
        guard outputs.published != nil else { return 0 }
        return outputs.changes.filter {
            outputs.target[$0] == nil && !$0.hasPrefix(indexPrefix) && !$0.hasPrefix(SearchWords.folder)
        }.count
    }

    /// Tells the next deploy which output files this build changes, before they change: a
    /// deploy that read them missing would leave the bucket behind (`OutputChanges`).
    private func noteChanges(_ outputs: Outputs) {
        let state = cache.output(output)
        OutputChanges.note(outputs.published == nil ? nil : Array(outputs.changes), journal: state.outputChanges,
                           record: state.deployedIndex)
    }

    /// The build store: the walk's connection, or one opened now; either tells `progress` how
    /// long a write has waited for another process holding the store.
    private func store(walked: BuildInputs?, progress: BuildProgress.Handler?) -> (BuildStore, BuildStore.Notice?)? {
        let onWait: (@Sendable (Int) -> Void)? = progress.map { progress in
            { @Sendable seconds in progress(BuildProgress(stage: .waiting, done: seconds, total: BuildStore.patience)) }
        }
        let opened = walked?.store.map { ($0, nil) } ?? openStore(onWait: onWait)
        opened?.0.waiting.report(to: onWait)
        return opened
    }

    private func report(_ site: PlannedSite, _ outputs: Outputs, written: Int, removed: Int, timings: [BuildTiming],
                        inputs: InputSnapshot?) -> Report {
        Report(pages: site.plan.pageCount, files: site.plan.copyCount, written: written, removed: removed,
               warnings: site.warnings, output: output, imagesProcessed: site.images.processed,
               imageSeconds: timings.first { $0.step == .images }?.seconds ?? 0,
               machinesDigested: outputs.units.computedMachines.count, timings: timings,
               notices: site.notices + Self.reloadedHeads(site.content), inputs: inputs)
    }

    /// Heads found damaged in the content cache when the build read them (after the load,
    /// whose notices say the damage it finds): said as the load says it.
    private static func reloadedHeads(_ content: SiteContent) -> [String] {
        content.machines.filter(\.headWasReloaded).map { ContentCache.Notice.damaged(bundle: $0.bundleName).description }
    }


    static let indexPrefix = Routes.searchIndexFolder + "/"

    /// Where the inputs live: the content, the site's themes and the built-in theme.
    package var inputRoots: [String] {
        [(siteRoot as NSString).appendingPathComponent("content"), (siteRoot as NSString).appendingPathComponent("Themes"),
         DefaultTheme.directory?.path ?? ""]
    }
}

