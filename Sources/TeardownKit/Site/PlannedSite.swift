/// The values the build's steps hand on: what the plan step decided, what the fingerprint
/// step found, and a value with the warnings found while making it.

/// The build's inputs as one walk found them (`SiteBuilder.walkInputs`).
public struct BuildInputs: Sendable {
    let snapshot: InputSnapshot?
    /// What the last build recorded, when every input was found as it recorded them: with
    /// nothing filed since, and its tree still published, the build has nothing to do.
    var unchanged: InputSnapshot.Record? = nil
}

/// A step's value with every warning found so far.
struct Loaded<Value> {
    let value: Value
    let warnings: [Diagnostic]
}

/// What the inputs check found: nothing changed since the last build, or a snapshot to record.
enum InputCheck {
    case unchanged(InputSnapshot.Record)
    case changed(InputSnapshot?)

    var snapshot: InputSnapshot? {
        if case .changed(let snapshot) = self { return snapshot }
        return nil
    }
}

/// Everything the site is rendered from, and the list of its outputs.
struct PlannedSite {
    let content: SiteContent
    let theme: Theme
    let images: ProcessedImages
    let manuals: ManualSet
    let downloads: [String: MachineDownload]
    let index: SiteIndex
    let search: SearchAvailability
    /// Pagefind, when this build makes a search index.
    let indexer: Pagefind?
    /// With a trailing slash.
    let baseURL: String
    let plan: SitePlan
    let warnings: [Diagnostic]
    /// What the caches had to say (`SiteBuilder.Report.notices`).
    var notices: [String] = []
}

/// Each output's digest against what the published and spare trees hold. A page to render
/// has the digest `unrendered` until it is rendered: its digest is then that of its bytes.
struct Outputs {
    let publisher: Publisher
    var target: [String: ContentDigest]
    let published: [String: ContentDigest]?
    let spare: BuildStore.Spare?
    /// The paths where `target` differs from `published`: every path when that is unknown.
    var changes: Set<String>
    /// The output path of each planned page and copy, in plan order.
    let pagePaths: [String]
    let copyPaths: [String]
    /// Every unit's key and digest now.
    let units: UnitDigests
    /// Where the trees' manifests and what their pages read are kept.
    let store: BuildStore
    /// Whether the store holds what the published tree's pages read: without it, every page is rendered.
    let readsKnown: Bool
    /// The units whose digest differs from the stored one, new and gone ones included.
    let changedUnits: [String]
    /// The bundles whose units this build digested, for the store.
    let bundles: BuildStore.Bundles
    /// What each page this build rendered read (unit keys), by output path.
    var rendered: [String: [String]] = [:]
    /// The shards of the search index to make again, with the output paths of their pages.
    let staleShards: [Shard]
    /// Why the build store was started over, if it was.
    let notice: BuildStore.Notice?

    struct Shard {
        let shard: SearchShards.Shard
        let pages: [String]
        /// The later discussion pages of a machine's or part's first page, by the first page's
        /// path: Pagefind reads them joined to it (`SearchDocument`).
        var later: [String: [String]] = [:]
    }

    static let unrendered = ContentDigest(high: 0, low: 0)

    var upToDate: Bool { published != nil && changes.isEmpty && staleShards.isEmpty }
}
