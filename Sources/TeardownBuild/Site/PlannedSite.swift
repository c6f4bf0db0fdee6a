import TeardownBase
import TeardownContent
import TeardownMedia

/// The values the build's steps hand on: what the plan step decided, what the fingerprint
/// step found, and a value with the warnings found while making it.

/// The build's inputs as one walk found them (`SiteBuilder.walkInputs`).
public struct BuildInputs: Sendable {
    package let snapshot: InputSnapshot?
    /// The build store the walk read the last snapshot from: the build goes on with it.
    package var store: BuildStore? = nil
    /// What the last build recorded, when every input was found as it recorded them: with
    /// nothing filed since, and its tree still published, the build has nothing to do.
    package var unchanged: InputSnapshot.Record? = nil
    /// Whether entries racy when stored have settled since: the snapshot is stored again
    /// without their content digests, or every later build would find them settling again.
    package var settled = false
}

/// A step's value with every warning found so far.
package struct Loaded<Value> {
    package let value: Value
    package let warnings: [Diagnostic]
}

/// What the inputs check found: nothing changed since the last build, or a snapshot to record.
package enum InputCheck {
    case unchanged(InputSnapshot.Record)
    case changed(InputSnapshot?)

    package var snapshot: InputSnapshot? {
        if case .changed(let snapshot) = self { return snapshot }
        return nil
    }
}

/// Everything the site is rendered from, and the list of its outputs.
package struct PlannedSite {
    package let content: SiteContent
    package let theme: Theme
    package let images: ProcessedImages
    /// What pages outside each machine show of it, made or read by slug when first asked for.
    package let summaries: MachineSummaries
    package let manuals: ManualSet
    package let downloads: SiteDownloads
    package let index: SiteIndex
    package let search: SearchAvailability
    /// Pagefind, when this build makes a search index.
    package let indexer: Pagefind?
    /// With a trailing slash.
    package let baseURL: String
    package let plan: SitePlan
    /// The machines (by index) whose units the build store holds as they are now: their bundle
    /// has the signature it had when they were digested, under the same settings.
    package let carried: Set<Int>
    package let warnings: [Diagnostic]
    /// What the caches had to say (`SiteBuilder.Report.notices`).
    package var notices: [String] = []
}

/// Each output's digest against what the published and spare trees hold. A page to render
/// has the digest `unrendered` until it is rendered: its digest is then that of its bytes.
package struct Outputs {
    package let publisher: Publisher
    package var target: OutputTargets
    package let published: StoredManifest?
    package let spare: BuildStore.Spare?
    /// The paths where `target` differs from `published`: every path when that is unknown.
    package var changes: Set<String>
    /// The output path of each planned page and copy, in plan order.
    package let pagePaths: [String]
    package let copyPaths: [String]
    /// Every unit's key and digest now.
    package let units: UnitDigests
    /// Where the trees' manifests and what their pages read are kept.
    package let store: BuildStore
    /// Whether the store holds what the published tree's pages read: without it, every page is rendered.
    package let readsKnown: Bool
    /// The units whose digest differs from the stored one, new and gone ones included.
    package let changedUnits: [String]
    /// The bundles whose units this build digested, for the store.
    package let bundles: BuildStore.Bundles
    /// What each page this build rendered read, by output path.
    package let rendered = PageReads()
    /// The shards of the search index to make again, with the output paths of their pages.
    package var staleShards: [Shard]
    /// Why the build store was started over, if it was.
    package let notice: BuildStore.Notice?
    /// What the index step changed of the first-answer index, for the store.
    package var firstAnswer: BuildStore.FirstAnswerChange? = nil
    /// Whether the changed pages' first-answer entries wait for the second publish
    /// (`deferFirstAnswer`): the pages are `firstAnswer`'s pending ones.
    package var answersAfterPages = false
    /// The token of the site feed's kept items this build wrote (`FeedEntries`), which its publish records.
    package var feedToken: String? = nil
    /// The recent shard's pages as the store has them, which the published search page names.
    package var publishedRecent: [BuildStore.RecentPage] = []
    /// What the index step changed of the shards' rows (the recent shard's pages are set by the
    /// fingerprint step when they change), for the store.
    package var shardRows = BuildStore.ShardChange()

    package struct Shard {
        package let shard: SearchShards.Shard
        package let pages: [String]
        /// The later discussion pages of a machine's or part's first page, by the first page's
        /// path: Pagefind reads them joined to it (`SearchDocument`).
        package var later: [String: [String]] = [:]
    }

    package static let unrendered = ContentDigest(high: 0, low: 0)

    package var upToDate: Bool { published != nil && changes.isEmpty && staleShards.isEmpty }
}
