import TeardownBase

/// How the search index is split. Pagefind indexes a whole folder at a time, so one index of a
/// large catalog is made again from every page after any change. Split into shards, each a
/// Pagefind bundle under `pagefind/shard-<bucket>/` holding the machines whose slugs hash to
/// one bucket (the site's manual is hashed like a machine), a change re-indexes only the
/// shards holding changed pages, and the search page merges the bundles in the browser.
///
/// A machine's bucket depends only on its slug and the number of buckets, which doubles as
/// the site grows; the shards are re-made once each time it does.
public struct SearchShards: Sendable, Equatable {
    public struct Shard: Sendable, Equatable {
        /// Where the bundle is written, from the site's root: `pagefind` or `pagefind/shard-<bucket>`.
        public let folder: String

        package init(folder: String) { self.folder = folder }
    }

    public let shards: [Shard]
    /// How many buckets the slugs hash into; `shards` are the buckets used.
    package let buckets: Int
    /// The shard of each machine's pages, by machine index.
    private let machineShard: [Int]
    /// The shard of the site manual's pages.
    private let manualShard: Int
    /// How many pages the shards index.
    package let indexed: Int
    /// site.yaml's `search_recent`.
    private let requestedRecent: Int?

    /// Indexed pages per shard that the automatic count aims at: re-indexing this many takes
    /// about a second, and merging more bundles delays a visitor's first results.
    package static let pagesPerShard = 1000
    /// The most shards the automatic count chooses: each is one more bundle a visitor's
    /// browser loads before the first results.
    package static let automaticMaximum = 32

    /// Shards for the pages planned and `carriedIndexed` indexed pages of machines not planned;
    /// `requested` is site.yaml's `search_shards`, and nil chooses by the number of indexed pages.
    package init(machines: [Machine], pages: [PageAddress], carriedIndexed: Int = 0, requested: Int?, recent: Int? = nil) {
        requestedRecent = recent
        var indexed = carriedIndexed, manualPages = false
        for page in pages where Self.isIndexed(page) {
            indexed += 1
            if case .manual(let address) = page, address.machine == nil { manualPages = true }
        }
        let buckets = requested ?? Self.automaticCount(indexed)
        self.buckets = max(1, buckets)
        self.indexed = indexed
        guard buckets > 1 else {
            shards = [Shard(folder: Routes.searchIndexFolder)]
            machineShard = Array(repeating: 0, count: machines.count)
            manualShard = 0
            return
        }
        // The site's manual is one more member of a bucket: a shard of its own would be ranked
        // by its own statistics (Pagefind weighs a page's length against its index's average),
        // unlike the same pages in one index.
        func bucket(_ key: String) -> Int { Self.bucket(key, buckets: buckets) }
        var used = Array(repeating: false, count: buckets)
        if manualPages { used[bucket("manual")] = true }
        let bucketOf = machines.map { Self.bucket(ofMachine: $0.slug, buckets: buckets) }
        for number in bucketOf { used[number] = true }
        var shards: [Shard] = []
        var position = Array(repeating: 0, count: buckets)
        for number in used.indices where used[number] {
            position[number] = shards.count
            let name = String(number, radix: 16)
            shards.append(Shard(folder: Routes.searchIndexFolder + "/shard-" + (name.count < 2 ? "0" + name : name)))
        }
        self.shards = shards
        machineShard = bucketOf.map { position[$0] }
        manualShard = position[bucket("manual")]
    }

    /// The shard that indexes `page`; nil for pages the index does not hold.
    package func shard(of page: PageAddress) -> Int? {
        guard Self.isIndexed(page) else { return nil }
        switch page {
        case .machine(let machine, _), .part(let machine, _, _): return machineShard[machine]
        case .manual(let address): return address.machine.map { machineShard[$0] } ?? manualShard
        default: return nil
        }
    }

    private static func bucket(_ key: String, buckets: Int) -> Int { Int(ContentDigest(of: key).low % UInt64(buckets)) }

    /// The bucket of the machine with slug `slug` among `buckets`.
    package static func bucket(ofMachine slug: String, buckets: Int) -> Int { bucket("machines/" + slug, buckets: buckets) }

    /// The shard of a machine's pages, by the machine's index.
    package func shard(ofMachine machine: Int) -> Int { machineShard[machine] }

    /// What decides which pages each shard holds: the number of buckets the slugs hash into and
    /// the shards' folders. While it is the same, a machine's pages stay in their shard.
    package var layout: String { ([String(buckets)] + shards.map(\.folder)).joined(separator: " ") }

    /// The recent shard's folder: the pages changed since their shard was indexed, indexed on
    /// their own (`RecentShard` in the build). Only a site of several shards has one.
    package static let recentFolder = Routes.searchIndexFolder + "/recent"
    package static let recent = Shard(folder: recentFolder)

    /// The most pages the recent shard holds before the shard with most of them is indexed
    /// again: site.yaml's `search_recent`, or half an average shard, so that it indexes in a
    /// fraction of a shard's time, and at most 500, so that a large shard's does not either
    /// (Benchmarks/README.md, "The recent shard"). 0: none.
    package var recentLimit: Int { requestedRecent ?? min(500, max(8, indexed / max(1, shards.count) / 2)) }

    /// The pages the default theme marks for Pagefind: machines, parts and manual pages.
    package static func isIndexed(_ page: PageAddress) -> Bool {
        switch page {
        case .machine, .part: true
        case .manual(let address): if case .page = address.output { true } else { false }
        default: false
        }
    }

    private static func automaticCount(_ pages: Int) -> Int {
        var count = 1
        while count * pagesPerShard < pages && count < automaticMaximum { count *= 2 }
        return count
    }
}
