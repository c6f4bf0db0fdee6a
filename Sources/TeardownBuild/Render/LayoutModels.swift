import TeardownContent

// Explicit, already-resolved data for templates: URLs are relative to the page being
// rendered, Markdown is HTML, numbers are formatted. Templates never see domain types.
// Each model is declared once: the build makes its template fields (Plugins/TemplateFields).

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
