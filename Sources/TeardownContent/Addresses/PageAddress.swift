/// Which page, made from which content: the plan lists them, the renderer renders them.
public enum PageAddress: Sendable, Hashable {
    /// Page `page` (1-based) of the catalog of machines.
    case catalog(page: Int)
    case machine(Int, discussionPage: Int)
    case part(Int, Int, discussionPage: Int)
    /// The photos of a machine and all its parts (part nil), or of one part.
    case gallery(Int, part: Int?)
    /// One photo's page: the machine, the part (nil for a machine's own photo) and the photo.
    case photo(PhotoAddress)
    /// Page `number` of every photo of the site.
    case photos(Int)
    /// machine.json, which the interactive machine view reads.
    case machineData(Int)
    /// discussion.json, which it reads the comments from.
    case machineDiscussion(Int)
    /// A page of the site's manual or of a machine's.
    case manual(ManualAddress)
    /// The search page.
    case search
    case notFound
    /// catalog.json, for apps, and the JSON Schema that describes it.
    case catalogData
    case catalogSchema
    /// The Atom feed of new comments and photos: the site's (nil) or a machine's.
    case feed(Int?)
    /// sitemap.xml: the index of the sitemap files.
    case sitemap
    /// Part `part` (1-based) of the sitemap of a machine's pages, or of the site's own (nil).
    case sitemapGroup(machine: Int?, part: Int)
    case robots
    /// The A-Z index of parts: its tabs, and page `page` (1-based) of one letter of `SiteIndex.letters`.
    case partsIndex
    case partsLetter(Int, page: Int)
    /// Every tag, and page `page` of one tag of `SiteIndex.tags`.
    case tags
    case tag(Int, page: Int)
    /// Page `page` of a collection of `SiteIndex.collections`.
    case collection(Int, page: Int)
}

extension PageAddress {
    /// An HTML page worth a search engine's visit: not data, not a feed, not the 404 page, not
    /// the search page, and not a print page (which repeats its manual).
    package var isListedInSitemap: Bool {
        switch self {
        case .catalog, .machine, .part, .gallery, .photo, .photos, .partsIndex, .partsLetter, .tags, .tag, .collection:
            return true
        case .manual(let address):
            switch address.output {
            case .page, .contents: return true
            case .print, .navigation: return false
            }
        case .machineData, .machineDiscussion, .search, .notFound, .catalogData, .catalogSchema, .feed, .sitemap, .sitemapGroup, .robots:
            return false
        }
    }
}

extension PageAddress {
    /// The machine whose folder a page is in, if any: its sitemap lists it.
    package var machine: Int? {
        switch self {
        case .machine(let m, _), .part(let m, _, _), .gallery(let m, _), .machineData(let m), .machineDiscussion(let m):
            return m
        case .photo(let address): return address.machine
        case .manual(let address): return address.machine
        case .feed(let m), .sitemapGroup(let m, _): return m
        case .catalog, .photos, .search, .notFound, .catalogData, .catalogSchema, .sitemap, .robots, .partsIndex,
             .partsLetter, .tags, .tag, .collection:
            return nil
        }
    }
}

/// A page of a manual: the site's (machine nil) or a machine's.
public struct ManualAddress: Sendable, Hashable {
    public enum Output: Sendable, Hashable {
        case page(Int)
        /// The whole navigation tree.
        case contents
        /// Every page on one page.
        case print
        /// The navigation tree as JSON, shared by the pages of a long manual.
        case navigation
    }
    public let machine: Int?
    public let output: Output

    package init(machine: Int?, output: Output) {
        self.machine = machine
        self.output = output
    }
}

/// Where a photo is in the content.
public struct PhotoAddress: Sendable, Hashable {
    public let machine: Int
    public let part: Int?
    public let photo: Int

    package init(machine: Int, part: Int?, photo: Int) {
        self.machine = machine
        self.part = part
        self.photo = photo
    }
}

/// How lists are cut into pages.
package enum Pagination {
    /// The most addresses one sitemap file may hold (sitemaps.org).
    package static let sitemapLimit = 50_000

    /// Photos on each page of the site-wide gallery.
    package static let photosPerPage = 24

    package static func pageCount(_ items: Int, _ perPage: Int) -> Int {
        max(1, (items + perPage - 1) / perPage)
    }
}
