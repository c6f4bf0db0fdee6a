import TeardownBase
import TeardownContent

/// Which shards of the search index a build makes again (`stale`), found by the fingerprint
/// step. A shard changes only when a page it indexes does: every file of it is marked with one
/// digest of those pages (`SiteBuilder.digest(of:pages:_:indexer:)`), so an unchanged shard is
/// carried over like a page.
///
/// A plan that carried machines knows only the planned machines' pages, so it cannot work out a
/// shard's digest. It needs none: a carried machine's pages are its published ones, and nothing
/// published is gone (or the plan is made again of every machine), so a shard none of whose
/// planned pages changes is its published self, as long as the store says the published shards
/// were indexed from their pages under the same layout and indexer (`BuildStore.searchLayout`).
/// Such a plan does not index a shard again for a page it changed: the page goes to the recent
/// shard (`RecentShard`), until that holds more than `SearchShards.recentLimit` pages and the
/// shard with most of them is indexed again. A stale shard is indexed from all its pages, so its
/// carried machines are planned (`unplanned`): the work grows with the pages a change touches,
/// not with the catalog.
struct ShardMarks {
    var stale: [Outputs.Shard] = []
    /// The published files of the index, carried or replaced with their shard's new ones: none is gone.
    var accounted: [String] = []
    /// How many more published files of the index are carried, counted, not listed (a plan that
    /// carried machines reads only the files of the shards it changes).
    var accountedElsewhere = 0
    /// Carried machines a stale shard needs planned; nil: every machine. Empty when the plan does.
    var unplanned: Set<Int>? = []
    /// The recent shard's pages now; nil: as the store has them.
    var recent: [BuildStore.RecentPage]? = nil

    /// What the store records of the shards `site` indexes: their layout and the indexer.
    static func layout(_ site: PlannedSite) -> String? {
        guard let indexer = site.indexer, let shards = site.search.shards else { return nil }
        return shards.layout + " " + indexer.signature
    }

    /// Marks the stale shards' published files for removal in `manifest` (their new files are
    /// added when they are indexed); `storedLayout` is what the store records of the published ones.
    static func mark(_ site: PlannedSite, pagePaths: [String], storedLayout: String?, storedRecent: [BuildStore.RecentPage],
                     _ manifest: inout TargetManifest) throws -> ShardMarks {
        guard let indexer = site.indexer, let shards = site.search.shards else { return ShardMarks() }
        let partial = !site.plan.carried.isEmpty
        if partial, storedLayout != layout(site) { return ShardMarks(unplanned: nil) }
        var marks = ShardMarks()
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
        var unplanned = Set<Int>()
        func replace(_ number: Int, held: [String: ContentDigest]) {
            unplanned.formUnion(site.plan.carried.keys.filter { shards.shard(ofMachine: $0) == number })
            for path in held.keys { manifest.set(path, nil) }
            marks.stale.append(Outputs.Shard(shard: shards.shards[number], pages: pages[number], later: later[number]))
        }
        if partial, shards.shards.count > 1, shards.recentLimit > 0 {
            return try markRecent(site, shards: shards, pages: pages, later: later, stored: storedRecent, &manifest)
        }
        if partial {
            // The store vouches for every published shard (the layout above): only the files of
            // those holding a changed page are read, and the others counted.
            var read = 0
            for number in shards.shards.indices where pages[number].contains(where: { manifest.changes.contains($0) }) {
                read += try marks.take(shards.shards[number].folder, &manifest)
                replace(number, held: [:])
            }
            marks.accountedElsewhere = try (manifest.published?.count(under: SiteBuilder.indexPrefix) ?? 0) - read
            marks.unplanned = unplanned
            return marks
        }
        let files = try shardFiles(manifest.published, shards: shards)
        for (number, shard) in shards.shards.enumerated() {
            let held = files[number]
            marks.accounted += held.keys
            var carried = false
            if !held.isEmpty, !pages[number].contains(where: { manifest.target[$0] == Outputs.unrendered }) {
                let digest = SiteBuilder.digest(of: shard, pages: pages[number], manifest.target, indexer: indexer)
                carried = held.values.allSatisfy { $0 == digest }
            }
            if !carried { replace(number, held: held) }
        }
        marks.unplanned = unplanned
        try marks.dropRecent(sharded: shards.shards.count > 1, stored: storedRecent, &manifest)
        return marks
    }

    /// Every shard is its pages' index again: the recent shard goes, once the search page no
    /// longer names it. (One index's folder holds the recent one's files, and is made again.)
    private mutating func dropRecent(sharded: Bool, stored: [BuildStore.RecentPage], _ manifest: inout TargetManifest) throws {
        if sharded, try take(SearchShards.recentFolder, &manifest) > 0 || !stored.isEmpty {
            stale.append(Outputs.Shard(shard: SearchShards.recent, pages: []))
        }
        if !stored.isEmpty { recent = [] }
    }

    /// Takes the published files under `folder` out of the target, to be made again, and
    /// returns how many there were.
    mutating func take(_ folder: String, _ manifest: inout TargetManifest) throws -> Int {
        let held = try manifest.published?.outputs(under: folder + "/") ?? [:]
        accounted += held.keys
        for path in held.keys { manifest.set(path, nil) }
        return held.count
    }

    /// The published files of each shard, by shard. (One index's folder, `pagefind/`, holds
    /// the files of an earlier build's shards too: they differ in digest, so it is made again.)
    private static func shardFiles(_ published: StoredManifest?, shards: SearchShards) throws -> [[String: ContentDigest]] {
        let prefixes = shards.shards.map { $0.folder + "/" }
        var files = Array(repeating: [String: ContentDigest](), count: prefixes.count)
        for (path, digest) in try published?.outputs(under: SiteBuilder.indexPrefix) ?? [:] {
            guard let number = prefixes.firstIndex(where: { path.hasPrefix($0) }) else { continue }
            files[number][path] = digest
        }
        return files
    }
}
