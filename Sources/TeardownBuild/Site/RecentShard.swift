import TeardownBase
import TeardownContent

/// The recent shard: Pagefind indexes a shard whole, in a time that grows with the shard's
/// pages, which a comment waited for (Benchmarks/README.md, "The recent shard"). A plan that
/// carried machines puts a changed page in a Pagefind bundle of its own instead, with the other
/// pages changed since their shards were indexed, which a few pages make quick. The search page
/// merges it with the shards and leaves out the results it stands in for (their fragments'
/// hashes, `BuildStore.RecentPage.superseded`), as a log-structured store reads its newest run
/// first. When it holds more than `SearchShards.recentLimit` pages, the shard with most of them
/// is indexed again from all its pages, and they leave it.
extension ShardMarks {
    static func markRecent(_ site: PlannedSite, shards: SearchShards, pages: [[String]], later: [[String: [String]]],
                           stored: [BuildStore.RecentPage], _ manifest: inout TargetManifest) throws -> ShardMarks {
        var marks = ShardMarks()
        var recent: [String: BuildStore.RecentPage] = [:]
        for page in stored { recent[page.path] = page }
        var changed = false
        for (number, shard) in shards.shards.enumerated() {
            let joined = Set(later[number].values.joined())
            for page in pages[number] where !joined.contains(page) {
                let pieces = later[number][page] ?? []
                guard manifest.changes.contains(page) || pieces.contains(where: manifest.changes.contains) else { continue }
                recent[page] = BuildStore.RecentPage(path: page, later: pieces, shard: shard.folder,
                                                     superseded: recent[page]?.superseded, filters: recent[page]?.filters)
                changed = true
            }
        }
        var read = 0
        if changed {
            var unplanned = Set<Int>()
            for folder in compacted(&recent, limit: shards.recentLimit) {
                guard let number = shards.shards.firstIndex(where: { $0.folder == folder }) else { continue }
                read += try marks.take(folder, &manifest)
                unplanned.formUnion(site.plan.carried.keys.filter { shards.shard(ofMachine: $0) == number })
                marks.stale.append(Outputs.Shard(shard: shards.shards[number], pages: pages[number], later: later[number]))
            }
            read += try marks.take(SearchShards.recentFolder, &manifest)
            let now = recent.values.sorted { $0.path < $1.path }
            marks.stale.append(Outputs.Shard(shard: SearchShards.recent,
                                             pages: now.flatMap { [$0.path] + $0.later },
                                             later: Dictionary(uniqueKeysWithValues: now.filter { !$0.later.isEmpty }.map { ($0.path, $0.later) })))
            marks.recent = now
            marks.unplanned = unplanned
        }
        marks.accountedElsewhere = try (manifest.published?.count(under: SiteBuilder.indexPrefix) ?? 0) - read
        return marks
    }

    /// Takes the pages of the shards holding most of `recent` out of it until it holds at most
    /// `limit`, and returns those shards' folders: they are indexed again.
    private static func compacted(_ recent: inout [String: BuildStore.RecentPage], limit: Int) -> [String] {
        var folders: [String] = []
        while recent.count > limit {
            var counts: [String: Int] = [:]
            for page in recent.values { counts[page.shard, default: 0] += 1 }
            // The fullest shard; of two as full, the first by name, so that a second pass picks the same.
            guard let fullest = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key
            else { break }
            folders.append(fullest)
            recent = recent.filter { $0.value.shard != fullest }
        }
        return folders
    }
}
