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
            let name = Self.bundleName(of: machine)
            if let signature = signatures[name], let row = stored[name], row.slug == machine.slug, row.signature == signature {
                carried[index] = row.counts
            }
        }
        return carried
    }

    /// Plans the site's outputs. The `carried` machines are not planned unless `whole`: their
    /// published outputs are as this plan would make them. A search index is made of every
    /// page, so a site with one plans every machine.
    func plan(_ content: SiteContent, images: Loaded<ProcessedImages>, theme: Theme,
              pagefind: Result<Pagefind, Pagefind.Unavailable>, signatures: [String: ContentDigest],
              carried: [Int: SitePlan.MachineCounts], whole: Bool) throws(BuildFailure) -> PlannedSite {
        var diagnostics = images.warnings
        // A missing Pagefind is a site without an index (reported below), not a failure.
        let indexing = content.config.search && (try? pagefind.get()) != nil
        let unplanned = whole || indexing ? [:] : carried
        let planning = content.machines.indices.filter { unplanned[$0] == nil }
        // The index is made on one core while the downloads are found and a changed machine's is
        // zipped, also on one: one after the other, each would leave a core idle.
        let indexed = Prefetch { SiteIndex(content) }
        let manuals = ManualSet(content, diagnostics: &diagnostics)
        let downloads: SiteDownloads
        let found: [String: MachineDownload]
        do throws(BundleDownloads.Failure) {
            let maker = BundleDownloads(cache: cache.downloads, counters: counters)
            found = try maker.make(content, images: images.value, signatures: signatures,
                                       of: unplanned.isEmpty ? nil : planning)
            downloads = SiteDownloads(found) { [images = images.value] index in
                let machine = content.machines[index]
                return maker.find(machine, images: images, signature: signatures[machine.slug])
            }
        } catch {
            // The cache failed, not the output: the message names the cache's folder.
            let downloads = cache.downloads
            throw BuildFailure(diagnostics + [.error(.cacheFailed(reason: error.description + (error.noSpace ? ErrorText.noSpaceHint() : "")),
                                                     at: SourceLocation(downloads))])
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
                                             requested: content.config.searchShards))
        case (true, .failure(let unavailable)):
            search = .unavailable("this site was built without a search index")
            diagnostics.append(.warning(.searchUnavailable(reason: unavailable.reason), at: content.config.location))
        }
        var base = baseURL ?? content.config.baseURL
        if !base.hasSuffix("/") { base += "/" }
        return PlannedSite(content: content, theme: theme, images: images.value, manuals: manuals, downloads: downloads,
                           // A missing Pagefind was reported when it was located; the site is built without search.
                           index: index, search: search, indexer: search.isAvailable ? try? pagefind.get() : nil,
                           baseURL: base, plan: sitePlan, carried: Set(carried.keys),
                           warnings: diagnostics.filter { $0.severity == .warning }.sortedByLocation())
    }
}
