// Explicit, already-resolved data for templates: URLs are relative to the page being
// rendered, Markdown is HTML, numbers are formatted. Templates never see domain types.

/// What the base layout needs on every page.
/// A class, not a struct: templates look up `site.…` dozens of times a page, and each lookup
/// put a copy of a struct this size into an existential box (an allocation and a retain of
/// every field).
final class LayoutModel: Sendable {
    let siteTitle: String
    let language: String
    let pageTitle: String
    /// The page's own title, for the cards of shared links.
    let shareTitle: String
    let description: String
    let canonical: String
    let home: String
    let help: String
    /// The A-Z index of parts and the page of all tags.
    let partsIndex: String
    let tags: String
    /// The site's Atom feed, and the machine's on a machine's pages.
    let feeds: [FeedLinkModel]
    /// "summary_large_image" when the page has an image to share, else "summary".
    let twitterCard: String
    let stylesheet: String
    /// The light-or-dark script, loaded in the head before the page is drawn.
    let schemeScript: String
    /// The site's icon, and its type.
    let icon: String
    let iconType: String
    let generator: String
    /// site.yaml's bug_report_url, when given.
    let bugReport: String?
    /// The site-wide photo gallery.
    let photos: String
    /// The theme's scripts for this page: the lightbox (but on the search page), the menu's, and
    /// the page's own (the manual's, the search page's, the machine view's).
    let scripts: [String]
    /// The image a shared link previews with, as an absolute URL.
    let image: SharingImageModel?
    /// The search page, for the header's search box; nil when the site has no search index.
    let search: String?
    /// Pagefind filters of this page (`type`, `machine`), written as meta tags it reads.
    let searchFilters: [SearchFilterModel]
    /// The header's section this page belongs to, which the header marks.
    let section: SectionModel

    init(siteTitle: String, language: String, pageTitle: String, shareTitle: String, description: String, canonical: String, home: String, help: String, partsIndex: String, tags: String, feeds: [FeedLinkModel], twitterCard: String, stylesheet: String, schemeScript: String, icon: String, iconType: String, generator: String, bugReport: String?, photos: String, scripts: [String], image: SharingImageModel?, search: String?, searchFilters: [SearchFilterModel], section: SectionModel) {
        self.siteTitle = siteTitle
        self.language = language
        self.pageTitle = pageTitle
        self.shareTitle = shareTitle
        self.description = description
        self.canonical = canonical
        self.home = home
        self.help = help
        self.partsIndex = partsIndex
        self.tags = tags
        self.feeds = feeds
        self.twitterCard = twitterCard
        self.stylesheet = stylesheet
        self.schemeScript = schemeScript
        self.icon = icon
        self.iconType = iconType
        self.generator = generator
        self.bugReport = bugReport
        self.photos = photos
        self.scripts = scripts
        self.image = image
        self.search = search
        self.searchFilters = searchFilters
        self.section = section
    }
}

/// Which of the header's sections a page is in: at most one is true.
struct SectionModel: Sendable {
    let machines: Bool
    let parts: Bool
    let tags: Bool
    let photos: Bool
    let help: Bool

    /// The section of the page at `url`, from where it lives: the search page and the 404
    /// page belong to none.
    init(_ url: URLPath) {
        func under(_ folder: URLPath) -> Bool { url.value.hasPrefix(folder.value) }
        parts = under(Routes.partsIndex)
        tags = under(Routes.tags)
        photos = under(Routes.photos(page: 1))
        help = under(Routes.manual)
        machines = url == Routes.catalog || under(.page("machines")) || under(.page("collections"))
    }
}

/// An Atom feed: its whole title for feed readers, and a short label for the footer.
struct FeedLinkModel: Sendable {
    let title: String
    let label: String
    let url: String
}

struct SearchFilterModel: Sendable {
    let name: String
    let value: String
}

struct SharingImageModel: Sendable {
    let url: String
    let width: Int
    let height: Int
}

/// One image in several widths and two formats, for `<picture>` with `srcset` and `sizes`.
struct PictureModel: Sendable {
    /// "a-320.webp 320w, a-640.webp 640w"
    let webp: String
    let jpeg: String
    /// The JPEG for browsers without srcset, and its size (which gives the aspect ratio).
    let src: String
    let width: Int
    let height: Int
    let sizes: String
    let alt: String
}

/// A page: the layout's data and the page's own.
struct PageModel<Body: Sendable & TemplateRepresentable>: Sendable {
    let site: LayoutModel
    let page: Body
}

struct LinkModel: Sendable {
    let title: String
    let url: String
}

struct StackLayerModel: Sendable {
    let name: String
    let url: String
    let z: Int
    /// CSS box as percentages of the canvas, so the stack scales with its container.
    let left: String
    let top: String
    let width: String
    let height: String
    /// The part whose page shows this stack; the others are drawn faded around it.
    let current: Bool
}

/// The assembled machine: its layer images stacked by z on a canvas.
struct StackModel: Sendable {
    let name: String
    let width: Int
    let height: Int
    let layers: [StackLayerModel]
}

/// The assembled machine as one element: its layers are that element's CSS backgrounds.
struct BackdropModel: Sendable {
    let name: String
    let width: Int
    let height: Int
    /// CSS declarations for the `style` attribute.
    let style: String
}

struct MachineCardModel: Sendable {
    let name: String
    let url: String
    let summary: String
    let tags: [LinkModel]
    let partCount: String
    /// Left out on tag and collection pages (`PageRenderer.card`).
    let commentCount: String?
    let photoCount: String?
    /// The cover photo or the cover composed from the layers; the backdrop when there is none.
    let cover: PictureModel?
    /// Made only when a template reads it: it names every layer of the machine, and the default
    /// card shows it only for a machine without a cover, while tag and collection pages hold a
    /// card for every machine they list.
    let backdrop: @Sendable () -> BackdropModel

    init(name: String, url: String, summary: String, tags: [LinkModel], partCount: String, commentCount: String?,
         photoCount: String?, cover: PictureModel?, backdrop: @autoclosure @escaping @Sendable () -> BackdropModel) {
        self.name = name
        self.url = url
        self.summary = summary
        self.tags = tags
        self.partCount = partCount
        self.commentCount = commentCount
        self.photoCount = photoCount
        self.cover = cover
        self.backdrop = backdrop
    }
}

struct CatalogModel: Sendable {
    /// site.yaml's description, shown under the site's name; empty when it has none.
    let description: String
    let machines: [MachineCardModel]
    let hasMachines: Bool
    /// site.yaml's collections.
    let collections: [CollectionLinkModel]
    let pagination: PaginationModel?
}

struct CollectionLinkModel: Sendable {
    let title: String
    let url: String
    let description: String
    let count: String
}

struct EntryModel: Sendable {
    let author: String
    let date: String
    let dateTime: String
    let html: String
    let isDesigner: Bool
    /// The entry's id, which feeds link to; nil for the designer's description.
    let anchor: String?
}

struct PaginationModel: Sendable {
    struct PageLink: Sendable {
        let number: Int
        let url: String
        let current: Bool
    }
    let pages: [PageLink]
    let previous: String?
    let next: String?
}

struct DiscussionModel: Sendable {
    let entries: [EntryModel]
    let hasEntries: Bool
    /// Whether anyone but the designer has written: the designer's entry is not a comment.
    let hasComments: Bool
    /// "3 comments", or nil when there are none (a heading saying "0 comments" above the
    /// designer's entry read as a contradiction).
    let commentCount: String?
    let pagination: PaginationModel?
}

/// A photo in a gallery: a link to its page, which the lightbox opens in place.
struct PhotoModel: Sendable {
    let url: String
    let picture: PictureModel
    /// The widest WebP and its size, for the lightbox.
    let large: String
    let largeWidth: Int
    let largeHeight: Int
    let caption: String?
    let credit: String?
    let license: String?
    let date: String?
}

struct LocationModel: Sendable {
    /// "48.85840° N, 2.29448° E"
    let text: String
    let map: String
}

struct PhotoPageModel: Sendable {
    let title: String
    let picture: PictureModel
    let large: String
    let caption: String?
    let author: String?
    let credit: String?
    let license: String?
    let date: String?
    let dateTime: String?
    let taken: String?
    let camera: String?
    let location: LocationModel?
    let machine: LinkModel
    let part: LinkModel?
    let gallery: LinkModel
    let download: LinkModel
    let previous: LinkModel?
    let next: LinkModel?
}

struct GalleryPageModel: Sendable {
    let title: String
    let machine: LinkModel?
    let part: LinkModel?
    let photos: [PhotoModel]
    let hasPhotos: Bool
    let count: String
    let pagination: PaginationModel?
}

struct PartLinkModel: Sendable {
    let name: String
    let url: String
    /// "2 comments, 1 photo", leaving out what is none; nil when the part has neither (a
    /// list of parts was four columns of "0 comments, 0 photos").
    let counts: String?
}

struct SpecModel: Sendable {
    let label: String
    /// As written in part.yaml.
    let value: String
    /// "decimal" or "binary" for data sizes.
    let note: String?
    let conversions: [SpecConversionModel]
}

struct SpecConversionModel: Sendable {
    /// "=" when the shown number is exact, "≈" when it is rounded.
    let relation: String
    let text: String
    let note: String?
    /// "metric" or "imperial", which the unit switch shows or hides; nil for the others.
    let system: String?
}

struct MachinePageModel: Sendable {
    let name: String
    /// The title search lists a later page of the discussion under, so that it is not a second
    /// result named like the machine; nil on the first page.
    let searchTitle: String?
    let summary: String
    let designer: String?
    let license: String?
    let updated: String?
    let tags: [LinkModel]
    let stack: StackModel
    let parts: [PartLinkModel]
    let discussion: DiscussionModel
    let photos: [PhotoModel]
    let hasPhotos: Bool
    /// The gallery of the machine and all its parts, when there is a photo.
    let gallery: LinkModel?
    /// machine.json, for the interactive view.
    let data: String
    /// The bundle as a .zip, with its size in the title.
    let download: LinkModel?
    /// Its comments as a .zip, when it has any.
    let commentsDownload: LinkModel?
    /// The machine's Atom feed.
    let feed: String
    /// The machine's own manual, when it has one.
    let manual: LinkModel?
    let intake: IntakeFormModel?
}

/// The "Post a comment" and "Add a photo" forms, when site.yaml sets intake_url.
struct IntakeFormModel: Sendable {
    let commentAction: String
    let photoAction: String
    let machine: String
    let part: String?
    /// This page's address, for the thank-you page's link back.
    let back: String
    let authorMin: Int
    let authorMax: Int
    let commentMin: Int
    let commentMax: Int
    /// "10 MB"
    let photoMax: String
    /// A moderator reads submissions first.
    let held: Bool
}

struct PartPageModel: Sendable {
    let name: String
    /// A later page of the discussion is its own search result, titled as such.
    let searchTitle: String?
    let machine: LinkModel
    /// The rest of the machine, drawn faded behind this part's layer.
    let backdrop: BackdropModel
    let layer: StackLayerModel
    let specs: [SpecModel]
    let hasSpecs: Bool
    /// Some conversion is metric or imperial, so the metric/imperial switch has something to do.
    let unitSwitch: Bool
    let tags: [LinkModel]
    let discussion: DiscussionModel
    let photos: [PhotoModel]
    let hasPhotos: Bool
    let gallery: LinkModel?
    let intake: IntakeFormModel?
}

struct ManualPageModel: Sendable {
    /// One line of the navigation tree; the template nests them with `opens` and `closes`.
    struct NavItem: Sendable {
        let title: String
        /// nil for drafts, part headings and separators.
        let url: String?
        let current: Bool
        /// "page", "draft", "part" or "separator".
        let kind: String
        /// The next item is this one's first child.
        let opens: Bool
        /// How many levels end after this item.
        let closes: [Int]
    }
    struct TocItem: Sendable {
        let title: String
        let url: String
        let level: Int
    }
    /// The page's heading.
    let title: String
    /// "Manual", or "<machine> manual".
    let manualTitle: String
    let html: String
    let toc: [TocItem]
    let hasToc: Bool
    /// The whole tree when the manual is short enough to repeat it on every page.
    let navigation: [NavItem]
    let hasNavigation: Bool
    /// The shared tree file of a long manual, which the manual's script loads.
    let navigationData: String?
    let contents: String
    /// Ancestors of the page, first the manual itself.
    let breadcrumbs: [LinkModel]
    let hasBreadcrumbs: Bool
    let previous: LinkModel?
    let next: LinkModel?
    let edit: String?
    let bugReport: String?
    let print: String?
    /// Whether Pagefind indexes this page (manual pages, not the contents page).
    let indexed: Bool
    /// The contents page shows the tree as its body.
    let isContents: Bool
}

struct ManualPrintModel: Sendable {
    struct Section: Sendable {
        let id: String
        let html: String
    }
    let title: String
    let manual: LinkModel
    let sections: [Section]
}

struct SearchPageModel: Sendable {
    /// Pagefind's script, relative to the search page; nil when the site was built without an index.
    let index: String?
    /// The worker that script starts, fetched by the page with Pagefind's first files so the
    /// search does not wait a round trip for it.
    let worker: String?
    /// The folders of the index's other shards, which the script merges into the first: one
    /// string, separated by spaces; nil when the index is one bundle.
    let merge: String?
    /// Why search is unavailable, when it is.
    let unavailable: String?
    /// The keys of the names' files (`search/names/<key>.json`), separated by spaces, so that
    /// the page asks only for a file that exists.
    let names: String
    /// Pagefind's `metaCacheTag`, and the first files it asks for, relative to the page (`SearchPreload`).
    var cacheTag: String? = nil
    var preloads: [String] = []
    /// The first shard's index chunks as JSON, `[[first word, last word, hash]]`, and their
    /// folder relative to the page, for the head's script to ask for a query's chunk early.
    var chunks: String? = nil
    var chunkFolder: String? = nil
}

struct NotFoundModel: Sendable {
    let home: String
}

/// A part in the A-Z index or on a tag page: its name, and the machine it belongs to.
struct PartEntryModel: Sendable {
    let name: String
    let url: String
    let machine: LinkModel
    /// The part drawn small over its faded machine, beside its name: where it sits.
    let thumbnail: PartThumbnailModel
}

struct PartThumbnailModel: Sendable {
    let backdrop: BackdropModel
    let layer: StackLayerModel
    /// The stack's place in the thumbnail's square window (`StackLayout.window(around:)`).
    let window: String
}

/// The parts under one letter, on the A-Z index's own page.
struct PartGroupModel: Sendable {
    let label: String
    let url: String
    let parts: [PartEntryModel]
}

/// One tab of the card file.
struct LetterTabModel: Sendable {
    let label: String
    /// nil for a letter without parts, shown but not linked.
    let url: String?
    let current: Bool
    let count: Int
}

/// The A-Z index: its tabs, and the parts of one letter (none on the index's own page).
struct PartsIndexModel: Sendable {
    let title: String
    /// The way back to the index's own page, on a letter's page.
    let index: String?
    /// Every part under its letter, on the index's own page of a catalog small enough to list.
    let groups: [PartGroupModel]
    let tabs: [LetterTabModel]
    let parts: [PartEntryModel]
    let hasParts: Bool
    let count: String
    let pagination: PaginationModel?
}

struct TagLinkModel: Sendable {
    let name: String
    let url: String
    let count: String
}

struct TagsModel: Sendable {
    let tags: [TagLinkModel]
    let hasTags: Bool
}

/// The machines and parts of one tag.
struct TagPageModel: Sendable {
    let name: String
    let machines: [MachineCardModel]
    let hasMachines: Bool
    let parts: [PartEntryModel]
    let hasParts: Bool
    let all: String
    let pagination: PaginationModel?
}

struct CollectionPageModel: Sendable {
    let title: String
    let description: String
    let machines: [MachineCardModel]
    let hasMachines: Bool
    let pagination: PaginationModel?
}
