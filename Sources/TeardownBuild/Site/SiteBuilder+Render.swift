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
        let catalogEntries = rendersCatalog ? try catalogEntries(site, outputs) : nil
        let rendersSiteFeed = pages.contains { if case .feed(nil) = $0.page { true } else { false } }
        let feedEntries = rendersSiteFeed ? feedEntries(site, outputs) : nil
        let source = Self.renderSource(site, searchPreload: rendersSearch && !firstShardStale(site, outputs)
                                           ? Self.searchPreload(site, in: outputs.publisher.spare) : nil,
                                       recent: outputs.publishedRecent, catalogEntries: catalogEntries,
                                       feedEntries: feedEntries)
        let units = outputs.units
        // catalog.json lists every machine with its cover and download: the heads, image rows
        // and downloads' records of those whose entries are encoded again are read on every
        // core first, not one after another inside its page (heads are decoded when first
        // asked for, and most builds ask for few).
        if let catalogEntries {
            let encoded = site.content.machines.enumerated().filter { catalogEntries.entry(of: $0.offset, slug: $0.element.slug) == nil }
            _ = ParallelMap.map(encoded) { index, machine in
                (machine.head.slug, site.images.cover(of: machine) != nil, site.downloads.download(of: index, slug: machine.slug) != nil)
            }
        }
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
        catalogEntries?.save()
        outputs.feedToken = feedEntries?.save()
        for ((_, path), result) in zip(planned, rendered) { outputs.target[path] = result.digest }
        return pages.count + copies.count
    }

    static func renderSource(_ site: PlannedSite, searchPreload: SearchPreload?, recent: [BuildStore.RecentPage],
                             catalogEntries: CatalogEntries? = nil, feedEntries: FeedEntries? = nil) -> RenderSource {
        RenderSource(content: site.content, theme: site.theme, images: site.images, summaries: site.summaries, manuals: site.manuals,
                     search: site.search, baseURL: site.baseURL, index: site.index,
                     downloads: site.downloads, sitemapPages: site.plan.sitemapPages, searchPreload: searchPreload,
                     searchRecent: recent.isEmpty ? nil : SearchRecent(superseded: recent.compactMap { page in
                         page.superseded.map { ($0, page.filters) }
                     }),
                     catalogEntries: catalogEntries, feedEntries: feedEntries)
    }

    /// catalog.json's entries as the last build that wrote it encoded them, with the digests now
    /// of the units they may read: this build's for the machines it digested, the store's for
    /// those it carried. A full build keeps none.
    private func catalogEntries(_ site: PlannedSite, _ outputs: Outputs) throws -> CatalogEntries {
        let units = outputs.units
        var keys = [units.key(of: .settings)]
        for index in site.content.machines.indices {
            for aspect in CatalogEntries.aspects { keys.append(units.key(of: .machine(index, aspect))) }
        }
        return CatalogEntries(file: outputs.publisher.state.catalogEntries, naming: { units.key(of: $0) },
                              digests: try Self.digests(keys, outputs), trusting: !full, counters: counters)
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
