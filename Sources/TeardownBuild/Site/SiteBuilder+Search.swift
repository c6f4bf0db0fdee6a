import Foundation
import TeardownThemes
import TeardownBase
import TeardownContent
import TeardownMedia

extension SiteBuilder {
    /// What the first shard's index in `root` tells the search page to fetch early; nil before it has one.
    static func searchPreload(_ site: PlannedSite, in root: String) -> SearchPreload? {
        guard let first = site.search.shards?.shards.first,
              let entry = FileManager.default.contents(atPath: root + "/" + first.folder + "/pagefind-entry.json")
        else { return nil }
        return SearchPreload(entry: entry, language: site.content.config.language) { name in
            FileManager.default.contents(atPath: root + "/" + first.folder + "/" + name)
        }
    }

    /// Whether this build indexes the first shard again.
    func firstShardStale(_ site: PlannedSite, _ outputs: Outputs) -> Bool {
        guard let first = site.search.shards?.shards.first else { return false }
        return outputs.staleShards.contains { $0.shard.folder == first.folder }
    }

    /// The search page names the first shard's index files (`SearchPreload`), which are known
    /// only once that shard is indexed: when it was, the page is rendered again.
    func renderSearchPage(_ site: PlannedSite, _ outputs: inout Outputs) throws {
        let recentStale = outputs.staleShards.contains { $0.shard.folder == SearchShards.recentFolder }
        guard firstShardStale(site, outputs) || recentStale,
              let entry = site.plan.pages.first(where: { if case .search = $0.page { true } else { false } })
        else { return }
        let spare = outputs.publisher.spare
        let reads = ReadSet()
        // What the build makes of the recent shard, or what is published (nil: unchanged).
        let recent = outputs.shardRows.recent ?? outputs.publishedRecent
        let html = PageRenderer(source: Self.renderSource(site, searchPreload: Self.searchPreload(site, in: spare), recent: recent),
                                reads: reads)
            .render(entry.page, at: entry.url)
        let path = entry.url.outputPath, digest = ContentDigest(of: html)
        try OutputWriter(root: spare).write(html, to: path)
        outputs.target[path] = digest
        outputs.rendered.record(path, reads.units, naming: outputs.units.key(of:))
        if outputs.published?[path] != digest { outputs.changes.insert(path) }
    }

    /// Runs Pagefind over the spare tree for each shard holding a changed page, and adds its
    /// files to the outputs. `afterPages`: the pages are published already, and a failure says so.
    func index(_ site: PlannedSite, _ outputs: inout Outputs, progress: BuildProgress.Handler?, afterPages: Bool = false) throws {
        guard let indexer = site.indexer, !outputs.staleShards.isEmpty else { return }
        let publisher = outputs.publisher, spare = publisher.spare
        let counter = ProgressCounter(.search, total: outputs.staleShards.count, handler: progress)
        let target = outputs.target
        // Pagefind keeps about one and a half cores busy, less while it writes its files, so
        // shards are indexed two at a time (or half as many as there are cores).
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount / 2)
        let indexed = ParallelMap.map(outputs.staleShards, width: width) { stale -> Result<(ContentDigest, [String: String]), Pagefind.Failure> in
            defer { counter.step() }
            let digest = Self.digest(of: stale.shard, pages: stale.pages, target, indexer: indexer)
            return Result { () throws(Pagefind.Failure) in
                // What staging left of the shard's old files: they were not in the target.
                do { try FileSystem.removeTree(spare + "/" + stale.shard.folder) } catch {
                    throw Pagefind.Failure(description: "cannot clear \(stale.shard.folder): \(ErrorText.text(error))")
                }
                // A recent shard left with no page is only cleared.
                guard !stale.pages.isEmpty else { return (digest, [:]) }
                try Self.index(stale, from: spare, gatheredIn: publisher.pagesFolder(forIndex: stale.shard.folder), with: indexer)
                return (digest, PagefindFragments.results(in: spare + "/" + stale.shard.folder, pages: stale.pages))
            }
        }
        for (stale, result) in zip(outputs.staleShards, indexed) {
            let digest: ContentDigest
            do {
                let results: [String: String]
                (digest, results) = try result.get()
                if stale.shard.folder == SearchShards.recentFolder {
                    try supersede(&outputs, recentResults: Set(results.values), in: spare)
                } else {
                    outputs.shardRows.fragments[stale.shard.folder] = results
                }
            } catch let error as Pagefind.Failure {
                let published = afterPages ? "; the pages are published with the last build's search index, which the next build brings up to date" : ""
                throw BuildFailure(site.warnings + [.error(.searchFailed(reason: error.description + published),
                                                           at: site.content.config.location)])
            }
            if stale.pages.isEmpty { continue }
            _ = FileSystem.walk(spare + "/" + stale.shard.folder) { relative, status in
                if !status.isDirectory {
                    outputs.target[stale.shard.folder + "/" + relative] = digest
                    outputs.changes.insert(stale.shard.folder + "/" + relative)
                }
            }
        }
    }

    /// Names, for each page of the recent shard, the result in its shard that it stands in for
    /// (none when the recent shard's result is the same one: the indexed text did not change).
    private func supersede(_ outputs: inout Outputs, recentResults: Set<String>, in spare: String) throws {
        guard let recent = outputs.shardRows.recent else { return }
        let base = try outputs.store.searchFragments(of: recent.map(\.path))
        var known: [String: BuildStore.RecentPage] = [:]
        for page in outputs.publishedRecent { known[page.path] = page }
        outputs.shardRows.recent = recent.map { page in
            var page = page
            page.superseded = base[page.path].flatMap { recentResults.contains($0) ? nil : $0 }
            page.filters = page.superseded.flatMap { hash in
                known[page.path]?.superseded == hash ? known[page.path]?.filters
                    : PagefindFragments.filters(of: hash, in: spare + "/" + page.shard)
            }
            return page
        }
    }

    /// Pagefind indexes a folder, walking all of it and reading every HTML file its glob
    /// matches: each shard walked the whole spare tree and read pages no shard indexes, such as galleries and a manual's
    /// print page. So a shard's pages are hard-linked into a folder of their own, at the same
    /// paths (so the URLs Pagefind records are the site's), and Pagefind indexes that folder
    /// into the spare tree. (A kill meanwhile leaves the folder behind; the publisher's
    /// recovery removes it.)
    static func index(_ stale: Outputs.Shard, from spare: String, gatheredIn pages: String,
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
            throw Pagefind.Failure(description: "cannot gather the pages of \(stale.shard.folder): \(ErrorText.text(error))")
        }
        defer { FileSystem.discard(pages) }
        try indexer.index(pages, into: spare + "/" + stale.shard.folder)
    }
}
