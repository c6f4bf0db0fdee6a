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
        let content = loaded.value.keepingPhotos { images.photos[$0.file.absolutePath] != nil }
        return (content, Loaded(value: images, warnings: diagnostics))
    }

    func plan(_ content: SiteContent, images: Loaded<ProcessedImages>, theme: Theme,
                      pagefind: Result<Pagefind, Pagefind.Unavailable>, signatures: [String: ContentDigest]) throws(BuildFailure) -> PlannedSite {
        var diagnostics = images.warnings
        // The index is made on one core while the downloads are found and a changed machine's is
        // zipped, also on one: one after the other, each would leave a core idle.
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
                           // A missing Pagefind was reported when it was located; the site is built without search.
                           index: index, search: search, indexer: search.isAvailable ? try? pagefind.get() : nil,
                           baseURL: base, plan: sitePlan,
                           warnings: diagnostics.filter { $0.severity == .warning }.sortedByLocation())
    }

    /// Readies the spare tree and writes into it every output that changed; returns how many.
    /// Each page rendered gets the digest of its bytes, and the store learns what it read.
    func render(_ site: PlannedSite, _ outputs: inout Outputs, progress: BuildProgress.Handler?) throws -> Int {
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

    static func renderSource(_ site: PlannedSite, searchPreload: SearchPreload?) -> RenderSource {
        RenderSource(content: site.content, theme: site.theme, images: site.images, manuals: site.manuals,
                     search: site.search, baseURL: site.baseURL, index: site.index,
                     downloads: site.downloads, sitemapPages: site.plan.sitemapPages, searchPreload: searchPreload)
    }
}
