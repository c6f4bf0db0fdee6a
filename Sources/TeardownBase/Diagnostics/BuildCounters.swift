import CoreMetrics

/// What a build or a sync counts of its own work (parts read, heads decoded, images looked
/// up...), sent to the swift-metrics factory its caller passes. Tests pass their own factory
/// and read the counts of that one run; a command passes none, and nothing is counted.
public struct BuildCounters: Sendable {
    /// The counted events; each is a counter of that label.
    public enum Event: String, Sendable, CaseIterable {
        /// Part folders read from their files, not taken from the content cache.
        case partsRead = "teardown.parts_read"
        /// Machine texts read from the content cache.
        case textsRead = "teardown.texts_read"
        /// Machine heads decoded from the content cache's files.
        case headsDecoded = "teardown.heads_decoded"
        /// Walks of the whole input tree.
        case inputWalks = "teardown.input_walks"
        /// Rows the image index wrote.
        case imageRowsWritten = "teardown.image_rows_written"
        /// Images whose cache key was worked out.
        case imagesKeyed = "teardown.images_keyed"
        /// Image sources read whole to be hashed.
        case sourcesHashed = "teardown.sources_hashed"
        /// Processed images looked up in the image cache.
        case imagesLookedUp = "teardown.images_looked_up"
        /// Listings of the image cache's folder.
        case imageListings = "teardown.image_listings"
        /// Machine bundles zipped for download.
        case bundlesZipped = "teardown.bundles_zipped"
        /// Rows of the stored input snapshot written.
        case inputRowsWritten = "teardown.input_rows_written"
        /// Measurements of the quarantine folder's size.
        case quarantineMeasured = "teardown.quarantine_measured"
        /// Outputs linked from the published tree into the spare, unchanged, before a publish.
        case outputsCarried = "teardown.outputs_carried"
        /// Connections opened to the output's build store.
        case storesOpened = "teardown.stores_opened"
        /// Bytes of the stored input snapshot read.
        case snapshotBytesRead = "teardown.snapshot_bytes_read"
        /// Bytes of the stored input snapshot kept after its check: the rows that differed or
        /// are racy, and those of no bundle (the others are left in the store).
        case snapshotBytesKept = "teardown.snapshot_bytes_kept"
        /// Bundles' rows of the stored input snapshot read back after its check.
        case snapshotRowsFetched = "teardown.snapshot_rows_fetched"
        /// Rows of the published tree's manifest read.
        case manifestRowsRead = "teardown.manifest_rows_read"
        /// Rows of the build store's bundles (unit digests by bundle) read.
        case bundleRowsRead = "teardown.bundle_rows_read"
        /// Unit digests read from the build store.
        case unitRowsRead = "teardown.unit_rows_read"
        /// Machines found among the stored unit digests (one key looked up each), to tell the gone ones.
        case unitMachinesRead = "teardown.unit_machines_read"
        /// Rows of the image index whose summary was read.
        case imageRowsRead = "teardown.image_rows_read"
        /// Rows of the image index whose bytes were read (and checked against their digests).
        case imageRowsFetched = "teardown.image_rows_fetched"
        /// Queries of the image index for stored source digests.
        case sourceQueries = "teardown.source_queries"
        /// Rows of the image index whose images were decoded.
        case imageRowsDecoded = "teardown.image_rows_decoded"
        /// Machines whose units were digested.
        case machinesDigested = "teardown.machines_digested"
        /// Machines' pages and copied files the plan listed.
        case pagesPlanned = "teardown.pages_planned"
        case copiesPlanned = "teardown.copies_planned"
        /// The site's own pages the plan listed: the catalog, tags, A-Z and the like.
        case sitePagesPlanned = "teardown.site_pages_planned"
        /// Machines whose outputs were planned; the others were carried by the counts the store keeps.
        case machinesPlanned = "teardown.machines_planned"
        /// Plans made again of every machine, when carrying some would not do (a page of one to
        /// render again, an output gone).
        case wholePlans = "teardown.whole_plans"
        /// Site indexes (A-Z, tags, names) made from every part's outline; a build whose
        /// machines' listings are unchanged takes the stored one.
        case siteIndexesMade = "teardown.site_indexes_made"
        /// Lists of the stored site index decoded (a letter's or tag's parts, a tag's machines,
        /// a bucket of names' words): only the pages that show one decode it.
        case indexListsDecoded = "teardown.index_lists_decoded"
        /// catalog.json's machine facts made from their heads; the others were read from the
        /// machines' rows (`CatalogFacts`).
        case catalogEntriesEncoded = "teardown.catalog_entries_encoded"
        /// Items of the site's feed made from their machine's head; the others were taken as
        /// the last build wrote them (`FeedEntries`).
        case feedItemsMade = "teardown.feed_items_made"
        /// Bundles racy when the build looked that it kept once they had settled (`SiteBuilder.settle`).
        case bundlesSettled = "teardown.bundles_settled"
        /// Machine summaries read back from the build store, by slug (`MachineSummaries`).
        case summariesRead = "teardown.summaries_read"
        /// Machine summaries made from a head and its image outcomes.
        case summariesMade = "teardown.summaries_made"
    }

    private let factory: (any MetricsFactory)?

    public init(factory: (any MetricsFactory)?) {
        self.factory = factory
    }

    /// Counts nothing.
    public static let none = BuildCounters(factory: nil)

    package func count(_ event: Event, by amount: Int = 1) {
        guard let factory, amount > 0 else { return }
        Counter(label: event.rawValue, factory: factory).increment(by: amount)
    }
}
