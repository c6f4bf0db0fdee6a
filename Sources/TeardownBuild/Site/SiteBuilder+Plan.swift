import TeardownThemes
import TeardownBase
import TeardownContent
import TeardownMedia

extension SiteBuilder {
    /// The machines whose units the build store holds as they are now (their bundle has the
    /// signature it had when they were digested, a settled one, under the same settings), with
    /// what their outputs came to then.
    func carriedMachines(_ content: SiteContent, images: ProcessedImages, signatures: [String: ContentDigest],
                         store: BuildStore?) throws -> [Int: SitePlan.MachineCounts] {
        guard let store, !signatures.isEmpty else { return [:] }
        let stored = try store.bundles(context: Self.unitContext(content, vipsVersion: images.vipsVersion))
        var carried: [Int: SitePlan.MachineCounts] = [:]
        for (index, machine) in content.machines.enumerated() {
            let name = machine.bundleName
            if let signature = signatures[name], let row = stored[name], row.slug == machine.slug, row.signature == signature {
                carried[index] = row.counts
            }
        }
        return carried
    }

    /// Plans the site's outputs. The `carried` machines are not planned: their published
    /// outputs are as this plan would make them. A build whose downloads are due a prune plans
    /// every machine (only a build that finds every machine's can tell which are unused); one
    /// re-indexing a search shard plans the machines of that shard (the fingerprint step).
    func plan(_ content: SiteContent, images: Loaded<ProcessedImages>, theme: Theme,
              pagefind: Result<Pagefind, Pagefind.Unavailable>, signatures: [String: ContentDigest],
              carried: [Int: SitePlan.MachineCounts], store: BuildStore?) throws(BuildFailure) -> PlannedSite {
        var diagnostics = images.warnings
        let maker = BundleDownloads(cache: cache.downloads, counters: counters)
        let unplanned = maker.pruneDue() ? [:] : carried
        let planning = content.machines.indices.filter { unplanned[$0] == nil }
        // The index is made on one core while the downloads are found and a changed machine's is
        // zipped, also on one: one after the other, each would leave a core idle.
        // A full build trusts no stored summary; the others, those of the machines the store vouches for.
        let summaries = MachineSummaries(content: content, images: images.value, vouched: full ? [] : Set(carried.keys),
                                         counters: counters, stored: { slug in try? store?.summary(of: slug) },
                                         storedAll: { (try? store?.summaries()) ?? [:] })
        let indexed = Prefetch { [cache, full, counters] in
            SiteIndex(content, summaries: summaries, stored: cache.siteIndex, trusting: !full, counters: counters)
        }
        let manuals = ManualSet(content, diagnostics: &diagnostics)
        let found = try downloads(content, images: images.value, signatures: signatures,
                                  of: unplanned.isEmpty ? nil : planning, diagnostics: diagnostics)
        let downloads = SiteDownloads(found) { [images = images.value] index in
            let machine = content.machines[index]
            return maker.find(machine, images: images, signature: signatures[machine.slug])
        }
        let index = indexed.value
        let sitePlan = SitePlan(content: content, theme: theme, images: images.value, index: index, downloads: found,
                                carried: unplanned)
        counters.count(.machinesPlanned, by: planning.count)
        let search: SearchAvailability
        switch (content.config.search, pagefind) {
        case (false, _): search = .unavailable("search is turned off for this site")
        case (true, .success):
            search = .available(SearchShards(machines: content.machines, pages: sitePlan.pages.map { $0.page },
                                             carriedIndexed: unplanned.values.reduce(0) { $0 + $1.indexed },
                                             requested: content.config.searchShards, recent: content.config.searchRecent))
        case (true, .failure(let unavailable)):
            search = .unavailable("this site was built without a search index")
            diagnostics.append(.warning(.searchUnavailable(reason: unavailable.reason), at: content.config.location))
        }
        var base = baseURL ?? content.config.baseURL
        if !base.hasSuffix("/") { base += "/" }
        return PlannedSite(content: content, theme: theme, images: images.value, summaries: summaries, manuals: manuals,
                           downloads: downloads,
                           // A missing Pagefind was reported when it was located; the site is built without search.
                           index: index, search: search, indexer: search.isAvailable ? try? pagefind.get() : nil,
                           baseURL: base, plan: sitePlan, carried: Set(carried.keys),
                           warnings: diagnostics.filter { $0.severity == .warning }.sortedByLocation())
    }

    /// `site` with the carried `machines` planned too (every machine when nil): what the first
    /// plan made for the site as a whole (the index, the manuals, the search settings) is kept,
    /// and those machines' downloads are found now.
    func planMachines(_ machines: Set<Int>?, in site: PlannedSite, signatures: [String: ContentDigest]) throws(BuildFailure)
        -> PlannedSite {
        let carried = site.plan.carried.keys.filter { machines?.contains($0) ?? true }.sorted()
        guard !carried.isEmpty else { return site }
        if machines == nil { counters.count(.wholePlans) }
        let kept = machines.map { planning in site.plan.carried.filter { !planning.contains($0.key) } } ?? [:]
        var found = site.downloads.found
        found.merge(try downloads(site.content, images: site.images, signatures: signatures, of: carried,
                                  diagnostics: site.warnings)) { first, _ in first }
        let plan = SitePlan(content: site.content, theme: site.theme, images: site.images, index: site.index,
                            downloads: found, carried: kept)
        counters.count(.machinesPlanned, by: carried.count)
        return PlannedSite(content: site.content, theme: site.theme, images: site.images, summaries: site.summaries,
                           manuals: site.manuals,
                           downloads: SiteDownloads(found), index: site.index, search: site.search, indexer: site.indexer,
                           baseURL: site.baseURL, plan: plan, carried: site.carried, warnings: site.warnings)
    }

    /// The downloads of the machines `of` (every machine when nil, which prunes the cache).
    private func downloads(_ content: SiteContent, images: ProcessedImages, signatures: [String: ContentDigest], of machines: [Int]?,
                           diagnostics: [Diagnostic]) throws(BuildFailure) -> [String: MachineDownload] {
        do throws(BundleDownloads.Failure) {
            return try BundleDownloads(cache: cache.downloads, counters: counters)
                .make(content, images: images, signatures: signatures, of: machines)
        } catch {
            // The cache failed, not the output: the message names the cache's folder.
            let downloads = cache.downloads
            throw BuildFailure(diagnostics + [.error(.cacheFailed(reason: error.description + (error.noSpace ? ErrorText.noSpaceHint() : "")),
                                                     at: SourceLocation(downloads))])
        }
    }
}
