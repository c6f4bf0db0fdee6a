import Foundation
import TeardownThemes
import TeardownBase
import TeardownContent
import TeardownMedia

extension SiteBuilder {
    /// Whether the inputs are as the last build found them, with the published tree unchanged too.
    func checkInputs(key: ContentDigest, walked: BuildInputs?, changed: [String]?, store: BuildStore?) -> InputCheck {
        let tree = FileSystem.identity(of: output)?.description
        let roots = inputRoots
        let stored = { store?.inputs().flatMap { InputSnapshot.stored($0, roots: roots, key: key) } }
        // Nothing filed into inputs that were all as the last build recorded them: a sync of
        // an empty inbox does not compare every entry of both snapshots.
        if !full, let walked, walked.snapshot?.key == key, changed?.isEmpty ?? true, let record = walked.unchanged,
           record.tree == tree {
            // Settled entries were stored racy: stored again by bundle, they cost no more checks.
            // Losing this costs only time.
            if walked.settled, let snapshot = walked.snapshot { try? store?.storeInputs(snapshot, record: record, counters: counters) }
            return .unchanged(record)
        }
        if !full, let walked, walked.snapshot?.key == key, let snapshot = walked.snapshot?.updating(changed ?? []) {
            // Paths the caller wrote are a change: the stored snapshot is not read back to compare. (Were they no change after all, the pipeline
            // finds every output up to date and publishes nothing.)
            if let changed, !changed.isEmpty { return .changed(snapshot) }
            // A snapshot checked against the store's rows that found no change took the branch
            // above; one that found some differs from them. Only a walk's is compared.
            if snapshot.leftInStore.isEmpty, let (stored, record) = stored(), record.tree == tree, stored.sameEntries(as: snapshot) {
                return .unchanged(record)
            }
            return .changed(snapshot)
        }
        if !full, let changed, let found = store?.checkedInputs(roots: roots, key: key, tree: tree ?? "", againstDisk: false),
           let snapshot = found.snapshot.updating(changed) {
            // Events that touched no input (an editor's hidden swap file) leave the site as it was.
            return snapshot.sameEntries(as: found.snapshot) ? .unchanged(found.record) : .changed(snapshot)
        }
        // The published tree is compared first: a snapshot of another tree is not worth
        // checking against the disk, which stats every input. The check keeps the rows that
        // differ; looked at again, their paths bring the stored snapshot up to date without a
        // second walk, and only the bundles they reach are signed again.
        if !full, let found = store?.checkedInputs(roots: roots, key: key, tree: tree ?? "", againstDisk: true),
           let (snapshot, unchanged, settled) = found.current() {
            guard let unchanged else { return .changed(snapshot) }
            // Settled entries were stored racy: stored again, they cost no more checks. Losing
            // this costs only time.
            if settled { try? store?.storeInputs(snapshot, record: unchanged, counters: counters) }
            return .unchanged(unchanged)
        }
        // Taken before anything is read, so an edit made during the build shows as a change next time.
        return .changed(InputSnapshot.take(roots: inputRoots, key: key, counters: counters))
    }

    /// The inputs as the last build found them, looked at again at `changed` only (absolute
    /// paths of files or folders): no input is walked or `stat`ed besides those. For a process
    /// that watches every input and so knows every change since the last build (`ResidentSync`).
    /// The last build is `after`, this process's, when it has it: its snapshot is taken as it
    /// is, not read back from the store, which costs a read of every entry. Without either, or with a
    /// stored one of other settings, it walks (`walkInputs`).
    public func inputs(changed: [String], after last: Report? = nil) -> BuildInputs {
        if !full, let snapshot = last?.inputs?.updating(changed) { return BuildInputs(snapshot: snapshot) }
        let key = settingsKey(pagefind: try? locatePagefind().get())
        // Read only here: a damaged store is the build's to mend and report.
        let store = full ? nil : BuildStore.existing(cache.output(output).store)?.counting(counters)
        guard let store else { return walkInputs() }
        counters.count(.storesOpened)
        if let snapshot = store.checkedInputs(roots: inputRoots, key: key, againstDisk: false)?.snapshot.updating(changed) {
            return BuildInputs(snapshot: snapshot, store: store)
        }
        return BuildInputs(snapshot: InputSnapshot.take(roots: inputRoots, key: key, counters: counters), store: store)
    }

    /// Reads the site, taking unchanged bundles from the content cache when the snapshot vouches for them.
    func load(_ snapshot: InputSnapshot?, _ signatures: InputSnapshot.BundleSignatures?, racyKeeps: RacyKeeps) throws(BuildFailure)
        -> (Loaded<SiteContent>, Theme, [ContentCache.Notice]) {
        var notices: [ContentCache.Notice] = []
        let parts = InputSnapshot.PartSignatures(snapshot)
        // A full build reads every bundle from its files, and stores each, so that its text is
        // held only while its pages render, and the next build takes it from the cache.
        let memo = signatures.map { signatures in
            var use = ContentCache.Use(folder: cache.content, signatures: signatures.settled, parts: { parts($0) }, trusting: !full)
            use.racy = signatures.all.filter { signatures.racy.contains($0.key) }
            use.racyKeeps = racyKeeps
            return use
        }
        let (prepared, diagnostics) = prepare(memo: memo, notices: &notices)
        guard let (content, theme) = prepared, !diagnostics.hasErrors else { throw BuildFailure(diagnostics) }
        return (Loaded(value: content, warnings: diagnostics), theme, notices)
    }

    /// Everything besides the inputs that shapes the output: the same content built by another
    /// version of Teardown, or for another base URL, is another site.
    func settingsKey(pagefind: Pagefind?) -> ContentDigest {
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
    /// `published`: this build published its outputs, and with them the units of what it digested.
    func remember(_ snapshot: InputSnapshot?, site: PlannedSite, outputs: Outputs, racyKeeps: RacyKeeps, published: Bool = true) {
        let store = outputs.store
        guard let snapshot, let tree = FileSystem.identity(of: output)?.description else {
            store.forgetInputs()
            return
        }
        let record = InputSnapshot.Record(tree: tree, pages: site.plan.pageCount, files: site.plan.copyCount,
                                          warnings: site.warnings)
        do { try store.storeInputs(snapshot, record: record, counters: counters) } catch { store.forgetInputs() }
        settle(snapshot, outputs, racyKeeps: racyKeeps, recordingRows: published)
    }

    /// Keeps what this build made of the bundles that were racy when it looked and have settled
    /// since, as they were (`InputSnapshot.settled`): their content in the content cache and
    /// their units' row in the store, under their signature. A sync files a comment a moment
    /// before its build looks; without this, the next sync read, digested and planned that
    /// machine again. Done after the pages are published: a build that stops first, or a row
    /// that cannot be written, costs the next build that work, nothing else. A build that
    /// published nothing wrote no units, so it records no row of theirs.
    private func settle(_ snapshot: InputSnapshot, _ outputs: Outputs, racyKeeps: RacyKeeps, recordingRows: Bool) {
        let racy = outputs.bundles.racy
        let candidates = Set(racy.map(\.name)).union(racyKeeps.names)
        guard !candidates.isEmpty else { return }
        let settled = snapshot.settled(candidates)
        guard !settled.isEmpty else { return }
        counters.count(.bundlesSettled, by: settled.count)
        racyKeeps.keep(settled)
        guard recordingRows else { return }
        // A row not written leaves the machine to the next build to plan, as before.
        try? outputs.store.recordSettled(racy.filter { settled.contains($0.name) }, context: outputs.bundles.context)
    }

    /// The output's build store, or nil when it cannot be opened (the publish step then says why).
    func openStore(onWait: (@Sendable (Int) -> Void)?) -> (BuildStore, BuildStore.Notice?)? {
        let state = cache.output(output)
        try? FileManager.default.createDirectory(atPath: state.folder, withIntermediateDirectories: true)
        counters.count(.storesOpened)
        // Without a store the build still runs in full; the publish step says why it cannot record.
        return (try? BuildStore.open(state.store, onWait: onWait)).map { ($0.0.counting(counters), $0.1) }
    }

    func prepare(memo: ContentCache.Use?, notices: inout [ContentCache.Notice])
        -> (value: (SiteContent, Theme)?, diagnostics: [Diagnostic]) {
        var (content, diagnostics) = ContentLoader(siteRoot: siteRoot, archiveCache: cache.bundles, memo: memo, counters: counters)
            .load(notices: &notices)
        let theme = Theme.load(siteRoot: siteRoot, config: content.config, diagnostics: &diagnostics)
        guard let theme else { return (nil, diagnostics) }
        return ((content, theme), diagnostics)
    }
}
