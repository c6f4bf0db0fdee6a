import TeardownContent

/// The site-wide links in every page's head, header and footer: the catalog, the manual, the
/// indexes, the site's feed, the stylesheet, the icon and the theme's own scripts.
///
/// Their targets sit at most one folder below the root, so a link to them from a page depends
/// only on how deep the page is and on its first folder (a manual page links to the manual as
/// "../"): pages that agree on both share one set, made once per build (`RenderSource`),
/// instead of a dozen relative links worked out for every page.
package struct SiteLinks: Sendable, Equatable {
    package let home: String
    package let help: String
    package let partsIndex: String
    package let tags: String
    package let photos: String
    package let feed: String
    package let stylesheet: String
    package let schemeScript: String
    package let icon: String
    package let search: String
    /// The lightbox's script, before a page's own, for pages with photos to open.
    package let lightboxScript: String

    /// The links of a page at `url`, relative to it.
    package init(at url: URLPath, favicon: String?) {
        self.init(favicon: favicon) { $0.relative(from: url) }
    }

    /// The links `link` makes of the targets: relative ones, or a 404 page's from the base URL.
    package init(favicon: String?, link: (URLPath) -> String) {
        home = link(Routes.catalog)
        help = link(Routes.manual)
        partsIndex = link(Routes.partsIndex)
        tags = link(Routes.tags)
        photos = link(Routes.photos(page: 1))
        feed = link(Routes.feed)
        stylesheet = link(Routes.asset("style.css"))
        schemeScript = link(Routes.asset("scheme.js"))
        icon = favicon.map { link(Routes.favicon(extension: $0)) } ?? link(Routes.asset("favicon.svg"))
        search = link(Routes.search)
        lightboxScript = link(Routes.asset("lightbox.js"))
    }

    /// Which pages share their links: the number of folders a page is in, and its first one.
    package static func key(of url: URLPath) -> String {
        let path = url.value.utf8.dropFirst()
        let depth = path.count(where: { $0 == UInt8(ascii: "/") })
        let first = path.prefix { $0 != UInt8(ascii: "/") }
        return String(depth) + "/" + String(decoding: first, as: UTF8.self)
    }
}
