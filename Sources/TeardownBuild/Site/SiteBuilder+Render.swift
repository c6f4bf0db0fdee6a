import Foundation
import TeardownThemes
import TeardownBase
import TeardownContent
import TeardownMedia

extension SiteBuilder {
    func processImages(_ loaded: Loaded<SiteContent>, cache: ImageCache, signatures: [String: ContentDigest],
                               progress: BuildProgress.Handler?) throws(BuildFailure) -> (SiteContent, Loaded<ProcessedImages>) {
        let config = loaded.value.config
        let images = ImageProcessor(settings: config.photos, maxPixels: config.limits.photoMaxPixels, cache: cache)
            .process(loaded.value, signatures: signatures, trustingStored: !full, progress: progress)
        let diagnostics = loaded.warnings + images.diagnostics
        guard !diagnostics.hasErrors else { throw BuildFailure(diagnostics) }
        // A photo that cannot be published leaves no trace: no page, no gallery entry, no count.
        let failing = images.failingPhotos
        let content = failing.isEmpty ? loaded.value : loaded.value.withoutPhotos(failing)
        return (content, Loaded(value: images, warnings: diagnostics))
    }

    /// Readies the spare tree and writes into it every output that changed; returns how many.
    /// Each page rendered gets the digest of its bytes, and the store learns what it read.
    func render(_ site: PlannedSite, _ outputs: inout Outputs, progress: BuildProgress.Handler?) throws -> Int {
        let spare = try outputs.publisher.openSpare(holding: outputs.spare, store: outputs.store)
        let writes = try outputs.publisher.stage(outputs.target, published: outputs.published, spare: spare,
                                                 changes: outputs.changes)
        let writer = OutputWriter(root: outputs.publisher.spare)
        // Each page with its output path as the plan made it: one string a page, which the reads are kept under too.
        let planned = zip(site.plan.pages, outputs.pagePaths).filter { writes.contains($0.1) }
        let pages = planned.map(\.0)
        let copies = zip(site.plan.copies, outputs.copyPaths).filter { writes.contains($0.1) }.map(\.0)
        // Pagefind's files are read only for a build that renders the search page, and not
        // when the first shard is to be indexed again: the page is then rendered after it.
        let rendersSearch = pages.contains { if case .search = $0.page { true } else { false } }
        let rendersCatalog = pages.contains { if case .catalogData = $0.page { true } else { false } }
        let catalogFacts = rendersCatalog ? try storedCatalogFacts(site, outputs) : nil
        let rendersSiteFeed = pages.contains { if case .feed(nil) = $0.page { true } else { false } }
        let feedEntries = rendersSiteFeed ? feedEntries(site, outputs) : nil
        let source = Self.renderSource(site, searchPreload: rendersSearch && !firstShardStale(site, outputs)
                                           ? Self.searchPreload(site, in: outputs.publisher.spare) : nil,
                                       recent: outputs.publishedRecent, catalogFacts: catalogFacts,
                                       feedEntries: feedEntries)
        let units = outputs.units
        let counter = ProgressCounter(.pages, total: pages.count, handler: progress)
        let read = outputs.rendered
        let rendered = ParallelMap.map(planned) { entry, path -> (digest: ContentDigest, failure: (any Error)?) in
            let reads = ReadSet()
            let html = PageRenderer(source: source, reads: reads).render(entry.page, at: entry.url)
            read.record(path, reads.units, naming: units.key(of:))
            // Digested here, on every core, rather than page by page after the map.
            let digest = ContentDigest(of: html)
            defer { counter.step() }
            do { try writer.write(html, to: path) } catch { return (digest, error) }
            return (digest, nil)
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
        outputs.feedToken = feedEntries?.save()
        for ((_, path), result) in zip(planned, rendered) { outputs.target[path] = result.digest }
        if let catalogFacts { counters.count(.catalogEntriesEncoded, by: site.content.machines.count - catalogFacts.count) }
        return pages.count + copies.count
    }

    static func renderSource(_ site: PlannedSite, searchPreload: SearchPreload?, recent: [BuildStore.RecentPage],
                             catalogFacts: [String: CatalogFacts]? = nil, feedEntries: FeedEntries? = nil) -> RenderSource {
        RenderSource(content: site.content, theme: site.theme, images: site.images, summaries: site.summaries, manuals: site.manuals,
                     search: site.search, baseURL: site.baseURL, index: site.index,
                     downloads: site.downloads, sitemapPages: site.plan.sitemapPages, searchPreload: searchPreload,
                     searchRecent: recent.isEmpty ? nil : SearchRecent(superseded: recent.compactMap { page in
                         page.superseded.map { ($0, page.filters) }
                     }),
                     catalogFacts: catalogFacts, feedEntries: feedEntries)
    }

    /// What catalog.json says of each machine the store vouches for, as its row keeps it, by
    /// slug; a full build takes none.
    private func storedCatalogFacts(_ site: PlannedSite, _ outputs: Outputs) throws -> [String: CatalogFacts] {
        guard !full else { return [:] }
        let vouched = Set(site.carried.map { site.content.machines[$0].slug })
        var facts: [String: CatalogFacts] = [:]
        for (slug, bytes) in try outputs.store.catalogFacts() where vouched.contains(slug) {
            facts[slug] = CatalogFacts(encoded: bytes)
        }
        return facts
    }

    /// The site feed's items as the last build that published it chose them, with the units
    /// whose digests changed since.
    private func feedEntries(_ site: PlannedSite, _ outputs: Outputs) -> FeedEntries {
        let units = outputs.units
        // A token that cannot be read is none: every item is made.
        return FeedEntries(file: outputs.publisher.state.feedEntries, slugs: site.content.machines.map(\.slug),
                           naming: { units.key(of: $0) }, changed: outputs.readsKnown ? Set(outputs.changedUnits) : nil,
                           published: try? outputs.store.feedToken(), trusting: !full, counters: counters)
    }

    /// The digests now of the units named `keys`: this build's for the machines it digested,
    /// the store's for those it carried.
    private static func digests(_ keys: [String], _ outputs: Outputs) throws -> [String: ContentDigest] {
        var digests: [String: ContentDigest] = [:]
        var stored: [String] = []
        for key in keys {
            if let digest = outputs.units.computed[key] { digests[key] = digest } else { stored.append(key) }
        }
        if !stored.isEmpty { digests.merge(try outputs.store.units(keys: stored, prefixes: [])) { now, _ in now } }
        return digests
    }
}
