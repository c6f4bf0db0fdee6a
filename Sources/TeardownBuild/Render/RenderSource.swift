import TeardownBase
import TeardownContent
import TeardownMedia

/// What every output of one build is rendered from, worked out once: the loaded content, the
/// theme and the values many pages share (each machine's stack, the site-wide gallery, the
/// image shared links fall back on). A shared value is kept with the units it was made from,
/// and a page that uses it records them, so sharing work between pages never hides a
/// dependency. Everything is read through `PageRenderer`'s recording accessors.
package final class RenderSource: Sendable {
    private let content: SiteContent
    private let theme: Theme
    package let images: ProcessedImages
    private let manuals: ManualSet
    private let search: SearchAvailability
    /// The base URL pages are published at, for canonical links.
    private let baseURL: String
    private let index: SiteIndex
    private let downloads: SiteDownloads
    private let sitemapPages: SitePlan.SitemapPages
    /// Pagefind's first files, as the first shard's last index named them; nil before it has one.
    package let searchPreload: SearchPreload?
    /// The search index's recent shard as published with the search page; nil when it has none.
    package let searchRecent: SearchRecent?
    /// What catalog.json says of each machine the store vouches for, by slug, when the build renders it.
    package let catalogFacts: [String: CatalogFacts]?
    /// The site feed's items as last chosen, when the build renders it.
    package let feedEntries: FeedEntries?
    /// Made when a page first asks: a rebuild of a few pages needs few stacks and seldom the
    /// site-wide gallery, which walks every photo.
    private let stacks = Locked([Int: StackLayout]())
    private let summaries: MachineSummaries
    private let allPhotos = Locked(Shared<[(photo: Photo, owner: URLPath)]>?.none)
    private let sharedImage: SharingImageModel?
    /// Descriptions' HTML that a machine's `machine.json` rendered, by Markdown text, for the
    /// part pages planned after it: on a catalog of long documents, rendering each description
    /// twice showed in cold builds' profiles. A page takes its entry out; past `keptLimit` bytes
    /// (entries no page took, as when only `machine.json` is rendered again) all are dropped.
    private let keptDescriptions = Locked(KeptHTML())
    /// By `SiteLinks.key`: a build has a few dozen.
    private let siteLinks = Locked([String: SiteLinks]())
    private static let keptLimit = 16 << 20

    private struct KeptHTML {
        package var byText: [String: String] = [:]
        package var bytes = 0
    }

    /// A value several outputs use, with what making it read.
    private struct Shared<Value: Sendable>: Sendable {
        package let value: Value
        package let reads: Set<InputUnit>

        package init(_ make: (ContentView) -> Value, from content: SiteContent) {
            let reads = ReadSet()
            value = make(ContentView(content, reads: reads))
            self.reads = reads.units
        }
    }

    package init(content: SiteContent, theme: Theme, images: ProcessedImages, summaries: MachineSummaries, manuals: ManualSet,
         search: SearchAvailability, baseURL: String, index: SiteIndex, downloads: SiteDownloads, sitemapPages: SitePlan.SitemapPages,
         searchPreload: SearchPreload? = nil, searchRecent: SearchRecent? = nil, catalogFacts: [String: CatalogFacts]? = nil,
         feedEntries: FeedEntries? = nil) {
        self.content = content
        self.theme = theme
        self.images = images
        self.summaries = summaries
        self.manuals = manuals
        self.search = search
        self.baseURL = baseURL
        self.index = index
        self.downloads = downloads
        self.sitemapPages = sitemapPages
        self.searchPreload = searchPreload
        self.searchRecent = searchRecent
        self.catalogFacts = catalogFacts
        self.feedEntries = feedEntries
        sharedImage = Self.sharedImage(content, images: images, baseURL: baseURL)
    }

    /// The image a shared link to a page without one of its own previews: the first cover.
    /// It is a unit of its own (`InputUnit.sharedImage`), digested from this value.
    package static func sharedImage(_ content: SiteContent, images: ProcessedImages, baseURL: String) -> SharingImageModel? {
        content.machines.lazy.compactMap { machine in
            images.cover(of: machine).map { PageRenderer.sharingImage($0, of: machine, baseURL: baseURL) }
        }.first
    }

    /// The site-wide links of a page at `url`. What they read (the icon setting, whether
    /// there is a search page) the page reads and records through its own accessors.
    package func siteLinks(at url: URLPath, favicon: String?) -> SiteLinks {
        let key = SiteLinks.key(of: url) + "/" + (favicon ?? "")
        if let links = siteLinks.withLock({ $0[key] }) { return links }
        let links = SiteLinks(at: url, favicon: favicon)
        siteLinks.withLock { $0[key] = links }
        return links
    }

    // MARK: Recording accessors

    package func view(_ reads: ReadSet) -> ContentView { ContentView(content, reads: reads) }

    package func render(_ template: String, _ model: some TemplateRepresentable, _ reads: ReadSet) -> String {
        reads.record(.template(template))
        return theme.render(template, model)
    }

    package func manual(_ machine: Int?, _ reads: ReadSet) -> ManualView {
        reads.record(.manual(machine, .navigation))
        return ManualView(book: manuals[machine], reads: reads)
    }

    package func search(_ reads: ReadSet) -> SearchAvailability {
        reads.record(.search)
        return search
    }

    package func baseURL(_ reads: ReadSet) -> String {
        reads.record(.settings)
        return baseURL
    }

    package func index(_ reads: ReadSet) -> IndexView { IndexView(index: index, reads: reads) }

    package func download(of machine: MachineView) -> BundleDownload? {
        machine.reads.record(.machine(machine.index, .download))
        return downloads.download(of: machine.index, slug: machine.slug)?.bundle
    }

    package func commentsDownload(of machine: MachineView) -> BundleDownload? {
        machine.reads.record(.machine(machine.index, .commentsDownload))
        return downloads.download(of: machine.index, slug: machine.slug)?.comments
    }

    /// The site's own pages, and how many files each machine's take: what the index and the site's sitemap show.
    package func siteSitemap(_ reads: ReadSet) -> (pages: [URLPath], machineParts: [Int]) {
        reads.record(.sitemap)
        return (sitemapPages.site, sitemapPages.listed.map(SitePlan.SitemapPages.parts))
    }

    package func sitemapPages(of machine: MachineView) -> [URLPath] {
        machine.reads.record(.machine(machine.index, .sitemap))
        return sitemapPages.machines[machine.index]
    }

    /// What pages outside the machine show of it, which follows from its head.
    package func summary(of machine: Int, _ reads: ReadSet) -> MachineSummary {
        reads.record(.machine(machine, .head))
        return summaries[machine]
    }

    /// The cover follows from its own unit, which its summary's row is written with.
    package func cover(of machine: Int, _ reads: ReadSet) -> [PixelSize]? {
        reads.record(.machine(machine, .cover))
        return summaries[machine].cover
    }

    package func stack(of machine: Int, _ reads: ReadSet) -> StackLayout {
        let summary = summary(of: machine, reads)
        return Self.memo(stacks, get: { $0[machine] }, set: { $0[machine] = $1 }) { StackLayout(summary) }
    }

    package func allPhotos(_ reads: ReadSet) -> [(photo: Photo, owner: URLPath)] {
        let photos = Self.memo(allPhotos, get: { $0 }, set: { $0 = $1 }) {
            Shared({ view in view.machines.indices.flatMap { PageRenderer.photos(of: $0, part: nil, in: view) } }, from: content)
        }
        reads.record(photos.reads)
        return photos.value
    }

    /// The value `get` finds, made by `make` the first time. It is made outside the lock, so
    /// pages rendering on other cores wait for no one; two that race make it twice, alike.
    /// (Closures, not a key path: a subscript key path is built at run time on every call.)
    private static func memo<Memo, Value>(_ store: Locked<Memo>, get: (Memo) -> Value?, set: (inout Memo, Value) -> Void,
                                          _ make: () -> Value) -> Value {
        if let made = store.withLock({ get($0) }) { return made }
        let made = make()
        store.withLock { set(&$0, made) }
        return made
    }

    /// The HTML of a description's Markdown `text`: taken from what was kept, or made by
    /// `make`, and kept for a later page when `keep` is set. Reads are recorded by the
    /// caller, which reads the description and the settings either way.
    package func descriptionHTML(_ text: String, keep: Bool, make: () -> String) -> String {
        if !keep, let kept = keptDescriptions.withLock({ (kept: inout KeptHTML) -> String? in
            guard let html = kept.byText.removeValue(forKey: text) else { return nil }
            kept.bytes -= html.utf8.count
            return html
        }) {
            return kept
        }
        let html = make()
        if keep {
            keptDescriptions.withLock { kept in
                if kept.bytes + html.utf8.count > Self.keptLimit { kept = KeptHTML() }
                if let replaced = kept.byText.updateValue(html, forKey: text) { kept.bytes -= replaced.utf8.count }
                kept.bytes += html.utf8.count
            }
        }
        return html
    }

    package func sharedImage(_ reads: ReadSet) -> SharingImageModel? {
        reads.record(.sharedImage)
        return sharedImage
    }
}
