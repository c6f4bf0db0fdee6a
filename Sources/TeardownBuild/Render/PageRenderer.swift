import Foundation
import TeardownBase
import TeardownContent
import TeardownMedia

/// Turns one planned page into HTML: builds its view model, then renders its template. One
/// renderer makes one output, and records into `reads` every unit of content, settings and
/// templates that output read (`InputUnit`): the build stores that set with the output.
package struct PageRenderer {
    package let source: RenderSource
    /// What this output has read so far.
    package let reads: ReadSet
    package let markdown = MarkdownRenderer()

    package init(source: RenderSource, reads: ReadSet) {
        self.source = source
        self.reads = reads
    }

    // What a page reads, each through an accessor that records it.
    package var content: ContentView { source.view(reads) }
    package var theme: ThemeView { ThemeView(source: source, reads: reads) }
    package var images: ProcessedImages { source.images }
    package var search: SearchAvailability { source.search(reads) }
    package var baseURL: String { source.baseURL(reads) }
    /// Parts A-Z, tags and collections.
    package var index: IndexView { source.index(reads) }
    /// What the sitemap lists.
    package var siteSitemap: (pages: [URLPath], machineParts: [Int]) { source.siteSitemap(reads) }
    package func sitemapPages(of machine: MachineView) -> [URLPath] { source.sitemapPages(of: machine) }
    /// The image a shared link to a page without one of its own previews with: the first cover.
    private var siteImage: SharingImageModel? { source.sharedImage(reads) }
    /// Every photo of the site in gallery order, for the pages of the site-wide gallery.
    var allPhotos: [(photo: Photo, owner: URLPath)] { source.allPhotos(reads) }

    package func manual(of machine: Int?) -> ManualView { source.manual(machine, reads) }
    package func download(of machine: MachineView) -> BundleDownload? { source.download(of: machine) }
    package func commentsDownload(of machine: MachineView) -> BundleDownload? { source.commentsDownload(of: machine) }
    /// Each machine's layers, laid out once: every page of a machine and its parts shows them.
    package func stack(of machine: Int) -> StackLayout { source.stack(of: machine, reads) }
    /// What a page outside a machine shows of it: listing pages draw their entries from it.
    package func summary(of machine: Int) -> MachineSummary { source.summary(of: machine, reads) }
    /// The sizes of a machine's cover copies, from its summary: a unit of its own.
    package func cover(of machine: Int) -> [PixelSize]? { source.cover(of: machine, reads) }

    /// Templates, read by name.
    package struct ThemeView {
        package let source: RenderSource
        package let reads: ReadSet

        package func render(_ template: String, _ model: some TemplateRepresentable) -> String { source.render(template, model, reads) }
    }

    /// The forms' script, on pages that have them.
    var intakeScript: [String] { content.config.intakeURL == nil ? [] : ["intake.js"] }

    package func render(_ page: PageAddress, at url: URLPath) -> String {
        switch page {
        case .catalog(let page):
            return theme.render("catalog", model(url, title: page > 1 ? "Machines, page \(page)" : nil,
                                                 description: content.config.description, catalog(page: page, at: url)))
        case .machine(let index, let number):
            return renderMachine(index, page: number, at: url)
        case .gallery(let machineIndex, let partIndex):
            let page = gallery(machineIndex, part: partIndex, at: url)
            let first = Self.photos(of: machineIndex, part: partIndex, in: content).first
            return theme.render("gallery", model(url, title: page.title, description: page.count,
                                                 image: first.flatMap { photoSharingImage($0.photo, owner: $0.owner) },
                                                 feed: content.machines[machineIndex], page))
        case .photos(let number):
            let page = siteGallery(page: number, at: url)
            return theme.render("gallery", model(url, title: page.title, description: page.count,
                                                 image: allPhotos.first.flatMap { photoSharingImage($0.photo, owner: $0.owner) }, page))
        case .photo(let address):
            let (page, image) = photoPage(address, at: url)
            return theme.render("photo", model(url, title: page.title, description: page.caption ?? page.title,
                                               image: image, page))
        case .machineData(let index):
            return machineData(index, at: url).json
        case .machineDiscussion(let index):
            return discussionData(index, at: url).json
        case .part(let machineIndex, let partIndex, let number):
            return renderPart(partIndex, of: machineIndex, page: number, at: url)
        case .manual(let address):
            return manual(address, at: url)
        case .search:
            // No photos to open: the lightbox's script would be a seventh request beside the
            // page's first six, and a phone's browser opens six at once.
            return theme.render("search", model(url, title: "Search", description: "Search the manual, machines, parts and comments.",
                                                scripts: search.isAvailable ? ["search.js"] : [], lightbox: false, searchPage(at: url)))
        case .catalogData:
            return catalogData()
        case .catalogSchema:
            return CatalogSchema.json
        case .feed(let machine):
            return feed(machine)
        case .sitemap:
            return sitemap()
        case .sitemapGroup(let machine, let number):
            return sitemap(of: machine, part: number)
        case .robots:
            return robots()
        case .partsIndex, .partsLetter, .tags, .tag, .collection:
            return indexPage(page, at: url)
        case .notFound:
            // A 404 page is served at any depth, so its links are absolute paths from the base URL.
            let base = SiteConfig.basePath(of: baseURL)
            return theme.render("not-found", PageModel(site: layout(url, title: "Page not found", description: "", absoluteBase: base),
                                                       page: NotFoundModel(home: base)))
        }
    }

    package func model<Body: Sendable>(_ url: URLPath, title: String?, description: String, image: SharingImageModel? = nil,
                               scripts: [String] = [], lightbox: Bool = true, feed: MachineView? = nil,
                               filters: [SearchFilterModel] = [], _ body: Body) -> PageModel<Body> {
        PageModel(site: layout(url, title: title, description: description, absoluteBase: nil, image: image, scripts: scripts,
                               lightbox: lightbox, feed: feed, filters: filters),
                  page: body)
    }

    /// Pagefind's filters for a machine's or part's page: its type on the first page of its
    /// discussion, "comment" wherever it shows comments, and the machine's name.
    func filters(_ type: String?, comments: Bool, machine: MachineView) -> [SearchFilterModel] {
        var filters = type.map { [SearchFilterModel(name: "type", value: $0)] } ?? []
        if comments { filters.append(SearchFilterModel(name: "type", value: "comment")) }
        filters.append(SearchFilterModel(name: "machine", value: machine.name))
        return filters
    }

    private func layout(_ url: URLPath, title: String?, description: String, absoluteBase: String?,
                        image: SharingImageModel? = nil, scripts: [String] = [], lightbox: Bool = true,
                        feed machine: MachineView? = nil, filters: [SearchFilterModel] = []) -> LayoutModel {
        func link(_ target: URLPath) -> String {
            absoluteBase.map { $0 + target.value.dropFirst() } ?? target.relative(from: url)
        }
        let favicon = content.config.faviconExtension
        let links = absoluteBase == nil ? source.siteLinks(at: url, favicon: favicon) : SiteLinks(favicon: favicon, link: link)
        let siteTitle = content.config.title
        var feeds = [FeedLinkModel(title: "\(siteTitle): new comments and photos", label: "Feed", url: links.feed)]
        // The pages of a machine and its parts offer the machine's feed, named after the machine.
        if let machine {
            feeds.append(FeedLinkModel(title: "\(machine.name): new comments and photos", label: "\(machine.name) feed",
                                       url: link(Routes.feed(of: machine))))
        }
        let image = image ?? siteImage
        // A shared link shows the description under the title; an empty one makes a bare card.
        let description = description.isEmpty ? (content.config.description.isEmpty ? siteTitle : content.config.description)
            : description
        return LayoutModel(
            siteTitle: siteTitle,
            language: content.config.language,
            pageTitle: title.map { "\($0) · \(siteTitle)" } ?? siteTitle,
            shareTitle: title ?? siteTitle,
            description: description,
            canonical: baseURL + url.value.dropFirst(),
            home: links.home,
            help: links.help,
            partsIndex: links.partsIndex,
            tags: links.tags,
            feeds: feeds,
            twitterCard: image == nil ? "summary" : "summary_large_image",
            stylesheet: links.stylesheet,
            schemeScript: links.schemeScript,
            icon: links.icon,
            iconType: SiteConfig.faviconTypes[favicon ?? "svg"] ?? "image/svg+xml",
            generator: "Teardown \(TeardownVersion.current)",
            bugReport: content.config.bugReportURL,
            photos: links.photos,
            scripts: (lightbox ? [links.lightboxScript] : []) + scripts.map { link(Routes.asset($0)) },
            image: image,
            search: search.isAvailable ? links.search : nil,
            searchFilters: filters,
            section: absoluteBase == nil ? SectionModel(url) : SectionModel(Routes.search)
        )
    }

    // MARK: Catalog and machines

    /// Page `number` of the catalog: its machines' cards, and on the first page the site's
    /// description and collections.
    private func catalog(page number: Int, at url: URLPath) -> CatalogModel {
        let (machines, pagination) = self.page(number, of: Array(content.machines.indices), at: url) { Routes.catalog(page: $0) }
        let cards = machines.map { card($0, at: url) }
        let collections = number > 1 ? [] : index.collections.map { collection in
            CollectionLinkModel(title: collection.title, url: Routes.collection(collection.slug).relative(from: url),
                                description: collection.description, count: Plural.count(collection.machines.count, "machine"))
        }
        return CatalogModel(description: number > 1 ? "" : content.config.description, machines: cards, hasMachines: !cards.isEmpty,
                            collections: collections, pagination: pagination)
    }

    /// A machine as a card: the catalog, tag pages and collections show them. `community`: with its counts of comments and photos, which change
    /// with every comment synced. The catalog shows them; tag and collection pages list a
    /// machine among thousands of parts and leave them out, so a comment does not rewrite
    /// every tag page of its machine.
    package func card(_ index: Int, at url: URLPath, community: Bool = true) -> MachineCardModel {
        let machine = content.machines[index]
        return MachineCardModel(
            name: machine.name, url: Routes.machine(machine).relative(from: url), summary: machine.summary,
            tags: tagLinks(machine.tags, at: url),
            partCount: Plural.count(machine.partCount, "part"),
            commentCount: community ? Plural.count(machine.commentCount, "comment") : nil,
            photoCount: community ? Plural.count(machine.photoCount, "photo") : nil,
            cover: cover(of: index).map {
                picture($0, alt: "\(machine.name), assembled", sizes: "(min-width: 40em) 20rem, 100vw") { width, type in
                    Routes.cover(machine, file: PhotoFiles.cover(width, type)).relative(from: url)
                }
            },
            backdrop: StackLayout.backdrop(of: summary(of: index), prefix: prefix(index, at: url))
                ?? stack(of: index).backdrop(prefix: prefix(index, at: url)))
    }

    /// The way from the page at `url` to the page of machine `index`, which layer URLs start from.
    package func prefix(_ index: Int, at url: URLPath) -> String {
        let up = Routes.machine(content.machines[index]).relative(from: url)
        return up == "./" ? "" : up
    }

    /// A machine page's title: a later page of its discussion says which it is.
    package static func discussionTitle(_ name: String, page number: Int) -> String {
        number > 1 ? "\(name): discussion, page \(number)" : name
    }

    /// Each tag linked to its page.
    package func tagLinks(_ tags: [String], at url: URLPath) -> [LinkModel] {
        tags.map { LinkModel(title: $0, url: Routes.tag(named: $0).relative(from: url)) }
    }

    /// A designer's description: raw HTML only when site.yaml allows it. `machine.json` keeps
    /// what it renders for the part pages planned after it, which take it instead of
    /// rendering the same Markdown again.
    package func html(ofDescription description: MarkdownSource, keep: Bool = false) -> String {
        let trust = MarkdownRenderer.Trust.designer(allowHTML: content.config.unsafeHTML)
        return source.descriptionHTML(description.text, keep: keep) {
            markdown.render(description.text, trust: trust, topLevel: Self.entryHeading)
        }
    }

    /// Descriptions and comments are entries under the page's "Discussion" (an h2): their
    /// headings start at h3, so a description that opens with `# Title` leaves the page one h1.
    package static let entryHeading = 3

    /// A community comment, always made safe.
    package func html(of comment: Comment) -> String {
        markdown.render(comment.body.text, trust: .community, topLevel: Self.entryHeading)
    }

    /// Links between the pages of a list `count` pages long; nil when it fits on one.
    /// The bar links the first and last pages and those near the current one, as most sites'
    /// do: a tag of a large catalog has hundreds of pages, and a bar linking each of them made
    /// every page of the list as long as the list was.
    package static func pagination(_ count: Int, current number: Int, link: (Int) -> String) -> PaginationModel? {
        guard count > 1 else { return nil }
        var shown = Set([1, count]).union(max(1, number - Self.pagesAround)...min(count, number + Self.pagesAround))
        // A gap of one page shows the page: "…" takes as much room.
        for page in shown where !shown.contains(page + 1) && shown.contains(page + 2) { shown.insert(page + 1) }
        var previous = 0
        return PaginationModel(
            pages: shown.sorted().map { page in
                defer { previous = page }
                return .init(number: page, url: link(page), current: page == number, gapBefore: page > previous + 1)
            },
            previous: number > 1 ? link(number - 1) : nil,
            next: number < count ? link(number + 1) : nil)
    }

    /// How many pages either side of the current one the bar links.
    package static let pagesAround = 2

    // MARK: Galleries

    // MARK: Search

    private func searchPage(at url: URLPath) -> SearchPageModel {
        switch search {
        case .available(let shards):
            // The first shard's script loads the search; the others are merged into it.
            SearchPageModel(index: URLPath("/\(shards.shards[0].folder)/pagefind.js").relative(from: url),
                            worker: URLPath("/\(shards.shards[0].folder)/pagefind-worker.js").relative(from: url),
                            merge: shards.shards.count > 1
                                ? (shards.shards.dropFirst().map(\.folder) + (source.searchRecent == nil ? [] : [SearchShards.recentFolder]))
                                    .map { URLPath("/\($0)/").relative(from: url) }.joined(separator: " ")
                                : nil,
                            unavailable: nil, firstAnswerFiles: index.firstAnswerFiles,
                            firstAnswerFolder: URLPath("/" + SearchWords.folder).relative(from: url),
                            cacheTag: source.searchPreload?.tag,
                            preloads: (source.searchPreload?.files ?? []).map {
                                URLPath("/\(shards.shards[0].folder)/").relative(from: url) + $0
                            },
                            chunks: source.searchPreload.flatMap(Self.chunkTable),
                            chunkFolder: URLPath("/\(shards.shards[0].folder)/index/").relative(from: url),
                            superseded: shards.shards.count > 1 ? source.searchRecent.map(\.json) : nil)
        case .unavailable(let reason):
            SearchPageModel(index: nil, worker: nil, merge: nil, unavailable: reason)
        }
    }
}

extension PageRenderer {
    /// `[[first word, last word, hash]]`; nil when there are no chunks to name.
    package static func chunkTable(_ preload: SearchPreload) -> String? {
        guard !preload.chunks.isEmpty,
              let data = try? JSONSerialization.data(withJSONObject: preload.chunks.map { [$0.from, $0.to, $0.hash] }) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

package enum Plural {
    package static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    /// "2 comments, 1 photo": the counts that are not zero; nil when all are.
    package static func list(_ counts: (Int, String)...) -> String? {
        let said = counts.filter { $0.0 > 0 }.map { count($0.0, $0.1) }
        return said.isEmpty ? nil : said.joined(separator: ", ")
    }
}
