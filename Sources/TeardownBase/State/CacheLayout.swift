import Foundation

/// Where each persistent store and cache of a site lives, and what keys its entries: the one
/// place that knows the cache folder's layout, as `Routes` is for URLs. Every entry can be
/// deleted: what is missing is made again (docs/MAP.md lists them).
public struct CacheLayout: Sendable, Equatable {
    /// The cache folder: `<site>/.teardown-cache` unless a caller names another.
    public let root: String

    public init(root: String) {
        self.root = root
    }

    /// One site has one set of caches however its folder is named.
    public init(siteRoot: String) {
        self.init(root: (siteRoot as NSString).appendingPathComponent(".teardown-cache"))
    }

    /// Each machine's parsed head and texts (`ContentCache`), by machine slug.
    public var content: String { root + "/content" }
    /// The site index (`SiteIndex`: A-Z, tags, names) as the last build made it, under the
    /// digest of every machine's listing. In the content cache's folder: it is let go with it.
    public var siteIndex: String { content + "/" + Self.siteIndexName }
    /// Its name in the content cache's folder, which the cache's prune keeps.
    public static let siteIndexName = "site-index"
    /// Unpacked `.bundle` archives, by the archive's digest and then the machine's slug.
    public var bundles: String { root + "/bundles" }
    /// Processed images by the digest of their source and settings (`ImageCache`), with their
    /// index (`index.sqlite`: a row per machine, by slug).
    public var images: String { root + "/images" }
    /// Each machine's downloadable bundle (`BundleDownloads`), by the digest of its entries.
    public var downloads: String { root + "/downloads" }
    /// Where the Pagefind executable was last found.
    public var pagefindLocation: String { root + "/pagefind-location" }
    /// What the last deploy uploaded (`LocalOutputs`), by published path.
    public var deployDigests: String { root + "/deploy-digests" }
    /// Which submissions sync has filed or refused (`SyncLedger`), by submission id.
    public var syncLedger: String { root + "/sync/ledger" }
    /// A remote inbox's files, downloaded before review.
    public var syncDownloads: String { root + "/sync/downloads" }
    /// Where the preview server builds, apart from public/.
    public var preview: String { root + "/preview" }

    /// How far sync has listed a bucket inbox; `key` names the bucket and prefix.
    public func bucketListing(_ key: String) -> String { root + "/sync/bucket-" + key }

    /// An intake service's uploads on their way in, one folder per address it listens on.
    public func intakeStaging(host: String, port: Int) -> String { root + "/intake/\(host)-\(port)" }

    /// The build's state for one output folder: building to several places stays incremental.
    public func output(_ output: String) -> OutputState {
        OutputState(folder: root + "/outputs/" + String(ContentDigest(of: output).description.prefix(16)))
    }

    /// The state kept per output folder.
    public struct OutputState: Sendable, Equatable {
        /// The folder, which also holds the spare tree the next build writes into.
        public let folder: String
        /// The build store (`BuildStore`, SQLite): the published manifest and the inputs each
        /// page read, by output path; the stored input snapshot, by input path.
        public var store: String { folder + "/state.sqlite" }
        /// Held by the one build of this output that runs at a time.
        public var lock: String { folder + ".lock" }
        /// What a deploy found in this output, shard by shard (`LocalShards`), and the output
        /// files builds changed since (`OutputChanges`): the next deploy reads those alone.
        public var deployed: String { folder + "/deployed" }
        public var deployedIndex: String { deployed + "/index" }
        public var outputChanges: String { deployed + "/changes" }
        /// The site feed's items as last chosen (`FeedEntries`).
        public var feedEntries: String { folder + "/feed-entries" }
    }
}
