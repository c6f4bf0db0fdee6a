import TeardownContent

// Explicit, already-resolved data for templates: URLs are relative to the page being
// rendered, Markdown is HTML, numbers are formatted. Templates never see domain types.

/// What the base layout needs on every page.
/// A class, not a struct: templates look up `site.…` dozens of times a page, and each lookup
/// put a copy of a struct this size into an existential box (an allocation and a retain of
/// every field).
package final class LayoutModel: Sendable {
    package let siteTitle: String
    package let language: String
    package let pageTitle: String
    /// The page's own title, for the cards of shared links.
    package let shareTitle: String
    package let description: String
    package let canonical: String
    package let home: String
    package let help: String
    /// The A-Z index of parts and the page of all tags.
    package let partsIndex: String
    package let tags: String
    /// The site's Atom feed, and the machine's on a machine's pages.
    package let feeds: [FeedLinkModel]
    /// "summary_large_image" when the page has an image to share, else "summary".
    package let twitterCard: String
    package let stylesheet: String
    /// The light-or-dark script, loaded in the head before the page is drawn.
    package let schemeScript: String
    /// The site's icon, and its type.
    package let icon: String
    package let iconType: String
    package let generator: String
    /// site.yaml's bug_report_url, when given.
    package let bugReport: String?
    /// The site-wide photo gallery.
    package let photos: String
    /// The theme's scripts for this page: the lightbox (but on the search page), the menu's, and
    /// the page's own (the manual's, the search page's, the machine view's).
    package let scripts: [String]
    /// The image a shared link previews with, as an absolute URL.
    package let image: SharingImageModel?
    /// The search page, for the header's search box; nil when the site has no search index.
    package let search: String?
    /// Pagefind filters of this page (`type`, `machine`), written as meta tags it reads.
    package let searchFilters: [SearchFilterModel]
    /// The header's section this page belongs to, which the header marks.
    package let section: SectionModel

    package init(siteTitle: String, language: String, pageTitle: String, shareTitle: String, description: String, canonical: String, home: String, help: String, partsIndex: String, tags: String, feeds: [FeedLinkModel], twitterCard: String, stylesheet: String, schemeScript: String, icon: String, iconType: String, generator: String, bugReport: String?, photos: String, scripts: [String], image: SharingImageModel?, search: String?, searchFilters: [SearchFilterModel], section: SectionModel) {
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
package struct SectionModel: Sendable {
    package let machines: Bool
    package let parts: Bool
    package let tags: Bool
    package let photos: Bool
    package let help: Bool

    /// The section of the page at `url`, from where it lives: the search page and the 404
    /// page belong to none.
    package init(_ url: URLPath) {
        func under(_ folder: URLPath) -> Bool { url.value.hasPrefix(folder.value) }
        parts = under(Routes.partsIndex)
        tags = under(Routes.tags)
        photos = under(Routes.photos(page: 1))
        help = under(Routes.manual)
        machines = url == Routes.catalog || under(.page("machines")) || under(.page("collections"))
    }
}

/// An Atom feed: its whole title for feed readers, and a short label for the footer.
package struct FeedLinkModel: Sendable {
    package let title: String
    package let label: String
    package let url: String
}

package struct SearchFilterModel: Sendable {
    package let name: String
    package let value: String
}

package struct SharingImageModel: Sendable {
    package let url: String
    package let width: Int
    package let height: Int
}

/// One image in several widths and two formats, for `<picture>` with `srcset` and `sizes`.
package struct PictureModel: Sendable {
    /// "a-320.webp 320w, a-640.webp 640w"
    package let webp: String
    package let jpeg: String
    /// The JPEG for browsers without srcset, and its size (which gives the aspect ratio).
    package let src: String
    package let width: Int
    package let height: Int
    package let sizes: String
    package let alt: String
}

/// A page: the layout's data and the page's own.
package struct PageModel<Body: Sendable & TemplateRepresentable>: Sendable {
    package let site: LayoutModel
    package let page: Body
}

package struct LinkModel: Sendable {
    package let title: String
    package let url: String
}

package struct StackLayerModel: Sendable {
    package let name: String
    package let url: String
    package let z: Int
    /// CSS box as percentages of the canvas, so the stack scales with its container.
    package let left: String
    package let top: String
    package let width: String
    package let height: String
    /// The part whose page shows this stack; the others are drawn faded around it.
    package let current: Bool
}

/// The assembled machine: its layer images stacked by z on a canvas.
package struct StackModel: Sendable {
    package let name: String
    package let width: Int
    package let height: Int
    package let layers: [StackLayerModel]
}

/// The assembled machine as one element: its layers are that element's CSS backgrounds.
package struct BackdropModel: Sendable {
    package let name: String
    package let width: Int
    package let height: Int
    /// CSS declarations for the `style` attribute.
    package let style: String
}

package struct MachineCardModel: Sendable {
    package let name: String
    package let url: String
    package let summary: String
    package let tags: [LinkModel]
    package let partCount: String
    /// Left out on tag and collection pages (`PageRenderer.card`).
    package let commentCount: String?
    package let photoCount: String?
    /// The cover photo or the cover composed from the layers; the backdrop when there is none.
    package let cover: PictureModel?
    /// Made only when a template reads it: it names every layer of the machine, and the default
    /// card shows it only for a machine without a cover, while tag and collection pages hold a
    /// card for every machine they list.
    package let backdrop: @Sendable () -> BackdropModel

    package init(name: String, url: String, summary: String, tags: [LinkModel], partCount: String, commentCount: String?,
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

package struct CatalogModel: Sendable {
    /// site.yaml's description, shown under the site's name; empty when it has none.
    package let description: String
    package let machines: [MachineCardModel]
    package let hasMachines: Bool
    /// site.yaml's collections.
    package let collections: [CollectionLinkModel]
    package let pagination: PaginationModel?
}

package struct CollectionLinkModel: Sendable {
    package let title: String
    package let url: String
    package let description: String
    package let count: String
}

package struct EntryModel: Sendable {
    package let author: String
    package let date: String
    package let dateTime: String
    package let html: String
    package let isDesigner: Bool
    /// The entry's id, which feeds link to; nil for the designer's description.
    package let anchor: String?
}

package struct PaginationModel: Sendable {
    package struct PageLink: Sendable {
        package let number: Int
        package let url: String
        package let current: Bool
    }
    package let pages: [PageLink]
    package let previous: String?
    package let next: String?
}

package struct DiscussionModel: Sendable {
    package let entries: [EntryModel]
    package let hasEntries: Bool
    /// Whether anyone but the designer has written: the designer's entry is not a comment.
    package let hasComments: Bool
    /// "3 comments", or nil when there are none (a heading saying "0 comments" above the
    /// designer's entry read as a contradiction).
    package let commentCount: String?
    package let pagination: PaginationModel?
}

/// A photo in a gallery: a link to its page, which the lightbox opens in place.
package struct PhotoModel: Sendable {
    package let url: String
    package let picture: PictureModel
    /// The widest WebP and its size, for the lightbox.
    package let large: String
    package let largeWidth: Int
    package let largeHeight: Int
    package let caption: String?
    package let credit: String?
    package let license: String?
    package let date: String?
}

package struct LocationModel: Sendable {
    /// "48.85840° N, 2.29448° E"
    package let text: String
    package let map: String
}

package struct PhotoPageModel: Sendable {
    package let title: String
    package let picture: PictureModel
    package let large: String
    package let caption: String?
    package let author: String?
    package let credit: String?
    package let license: String?
    package let date: String?
    package let dateTime: String?
    package let taken: String?
    package let camera: String?
    package let location: LocationModel?
    package let machine: LinkModel
    package let part: LinkModel?
    package let gallery: LinkModel
    package let download: LinkModel
    package let previous: LinkModel?
    package let next: LinkModel?
}

package struct GalleryPageModel: Sendable {
    package let title: String
    package let machine: LinkModel?
    package let part: LinkModel?
    package let photos: [PhotoModel]
    package let hasPhotos: Bool
    package let count: String
    package let pagination: PaginationModel?
}

package struct PartLinkModel: Sendable {
    package let name: String
    package let url: String
    /// "2 comments, 1 photo", leaving out what is none; nil when the part has neither (a
    /// list of parts was four columns of "0 comments, 0 photos").
    package let counts: String?
}

package struct SpecModel: Sendable {
    package let label: String
    /// As written in part.yaml.
    package let value: String
    /// "decimal" or "binary" for data sizes.
    package let note: String?
    package let conversions: [SpecConversionModel]
}

package struct SpecConversionModel: Sendable {
    /// "=" when the shown number is exact, "≈" when it is rounded.
    package let relation: String
    package let text: String
    package let note: String?
    /// "metric" or "imperial", which the unit switch shows or hides; nil for the others.
    package let system: String?
}

package struct MachinePageModel: Sendable {
    package let name: String
    /// The title search lists a later page of the discussion under, so that it is not a second
    /// result named like the machine; nil on the first page.
    package let searchTitle: String?
    package let summary: String
    package let designer: String?
    package let license: String?
    package let updated: String?
    package let tags: [LinkModel]
    package let stack: StackModel
    package let parts: [PartLinkModel]
    package let discussion: DiscussionModel
    package let photos: [PhotoModel]
    package let hasPhotos: Bool
    /// The gallery of the machine and all its parts, when there is a photo.
    package let gallery: LinkModel?
    /// machine.json, for the interactive view.
    package let data: String
    /// The bundle as a .zip, with its size in the title.
    package let download: LinkModel?
    /// Its comments as a .zip, when it has any.
    package let commentsDownload: LinkModel?
    /// The machine's Atom feed.
    package let feed: String
    /// The machine's own manual, when it has one.
    package let manual: LinkModel?
    package let intake: IntakeFormModel?
}

/// The "Post a comment" and "Add a photo" forms, when site.yaml sets intake_url.
package struct IntakeFormModel: Sendable {
    package let commentAction: String
    package let photoAction: String
    package let machine: String
    package let part: String?
    /// This page's address, for the thank-you page's link back.
    package let back: String
    package let authorMin: Int
    package let authorMax: Int
    package let commentMin: Int
    package let commentMax: Int
    /// "10 MB"
    package let photoMax: String
    /// A moderator reads submissions first.
    package let held: Bool
}

package struct PartPageModel: Sendable {
    package let name: String
    /// A later page of the discussion is its own search result, titled as such.
    package let searchTitle: String?
    package let machine: LinkModel
    /// The rest of the machine, drawn faded behind this part's layer.
    package let backdrop: BackdropModel
    package let layer: StackLayerModel
    package let specs: [SpecModel]
    package let hasSpecs: Bool
    /// Some conversion is metric or imperial, so the metric/imperial switch has something to do.
    package let unitSwitch: Bool
    package let tags: [LinkModel]
    package let discussion: DiscussionModel
    package let photos: [PhotoModel]
    package let hasPhotos: Bool
    package let gallery: LinkModel?
    package let intake: IntakeFormModel?
}

package struct ManualPageModel: Sendable {
    /// One line of the navigation tree; the template nests them with `opens` and `closes`.
    package struct NavItem: Sendable {
        package let title: String
        /// nil for drafts, part headings and separators.
        package let url: String?
        package let current: Bool
        /// "page", "draft", "part" or "separator".
        package let kind: String
        /// The next item is this one's first child.
        package let opens: Bool
        /// How many levels end after this item.
        package let closes: [Int]
    }
    package struct TocItem: Sendable {
        package let title: String
        package let url: String
        package let level: Int
    }
    /// The page's heading.
    package let title: String
    /// "Manual", or "<machine> manual".
    package let manualTitle: String
    package let html: String
    package let toc: [TocItem]
    package let hasToc: Bool
    /// The whole tree when the manual is short enough to repeat it on every page.
    package let navigation: [NavItem]
    package let hasNavigation: Bool
    /// The shared tree file of a long manual, which the manual's script loads.
    package let navigationData: String?
    package let contents: String
    /// Ancestors of the page, first the manual itself.
    package let breadcrumbs: [LinkModel]
    package let hasBreadcrumbs: Bool
    package let previous: LinkModel?
    package let next: LinkModel?
    package let edit: String?
    package let bugReport: String?
    package let print: String?
    /// Whether Pagefind indexes this page (manual pages, not the contents page).
    package let indexed: Bool
    /// The contents page shows the tree as its body.
    package let isContents: Bool
}

package struct ManualPrintModel: Sendable {
    package struct Section: Sendable {
        package let id: String
        package let html: String
    }
    package let title: String
    package let manual: LinkModel
    package let sections: [Section]
}

package struct SearchPageModel: Sendable {
    /// Pagefind's script, relative to the search page; nil when the site was built without an index.
    package let index: String?
    /// The worker that script starts, fetched by the page with Pagefind's first files so the
    /// search does not wait a round trip for it.
    package let worker: String?
    /// The folders of the index's other shards, which the script merges into the first: one
    /// string, separated by spaces; nil when the index is one bundle.
    package let merge: String?
    /// Why search is unavailable, when it is.
    package let unavailable: String?
    /// The keys of the names' files (`search/names/<key>.json`), separated by spaces, so that
    /// the page asks only for a file that exists.
    package let names: String
    /// Pagefind's `metaCacheTag`, and the first files it asks for, relative to the page (`SearchPreload`).
    package var cacheTag: String? = nil
    package var preloads: [String] = []
    /// The first shard's index chunks as JSON, `[[first word, last word, hash]]`, and their
    /// folder relative to the page, for the head's script to ask for a query's chunk early.
    package var chunks: String? = nil
    package var chunkFolder: String? = nil
}

package struct NotFoundModel: Sendable {
    package let home: String
}

/// A part in the A-Z index or on a tag page: its name, and the machine it belongs to.
package struct PartEntryModel: Sendable {
    package let name: String
    package let url: String
    package let machine: LinkModel
    /// The part drawn small over its faded machine, beside its name: where it sits.
    package let thumbnail: PartThumbnailModel
}

package struct PartThumbnailModel: Sendable {
    package let backdrop: BackdropModel
    package let layer: StackLayerModel
    /// The stack's place in the thumbnail's square window (`StackLayout.window(around:)`).
    package let window: String
}

/// The parts under one letter, on the A-Z index's own page.
package struct PartGroupModel: Sendable {
    package let label: String
    package let url: String
    package let parts: [PartEntryModel]
}

/// One tab of the card file.
package struct LetterTabModel: Sendable {
    package let label: String
    /// nil for a letter without parts, shown but not linked.
    package let url: String?
    package let current: Bool
    package let count: Int
}

/// The A-Z index: its tabs, and the parts of one letter (none on the index's own page).
package struct PartsIndexModel: Sendable {
    package let title: String
    /// The way back to the index's own page, on a letter's page.
    package let index: String?
    /// Every part under its letter, on the index's own page of a catalog small enough to list.
    package let groups: [PartGroupModel]
    package let tabs: [LetterTabModel]
    package let parts: [PartEntryModel]
    package let hasParts: Bool
    package let count: String
    package let pagination: PaginationModel?
}

package struct TagLinkModel: Sendable {
    package let name: String
    package let url: String
    package let count: String
}

package struct TagsModel: Sendable {
    package let tags: [TagLinkModel]
    package let hasTags: Bool
}

/// The machines and parts of one tag.
package struct TagPageModel: Sendable {
    package let name: String
    package let machines: [MachineCardModel]
    package let hasMachines: Bool
    package let parts: [PartEntryModel]
    package let hasParts: Bool
    package let all: String
    package let pagination: PaginationModel?
}

package struct CollectionPageModel: Sendable {
    package let title: String
    package let description: String
    package let machines: [MachineCardModel]
    package let hasMachines: Bool
    package let pagination: PaginationModel?
}
