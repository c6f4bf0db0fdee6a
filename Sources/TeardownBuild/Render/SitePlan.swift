import TeardownBase
import TeardownContent
import TeardownMedia

/// Every output of a build, decided before anything is rendered.
public struct SitePlan: Sendable {
    /// A page to render, and from which content.
    public typealias Page = PageAddress

    /// A file published as it is, from the content or from the image cache.
    public struct Copy: Sendable, Hashable {
        public let url: URLPath
        /// Absolute path of the file to publish.
        public let source: String
        /// A file of the image cache: named by the digest of what it was made from and never
        /// changed in place, so its path identifies it and it can be published as a hard link.
        public var cached = false
    }

    public let pages: [(url: URLPath, page: Page)]
    public let copies: [Copy]
    /// The pages the sitemaps list, in plan order: the site's own (`site`), and each machine's
    /// by its index. Each machine's are a sitemap of their own, so a page a comment adds rewrites
    /// its machine's sitemap only, not one file of the whole site's pages.
    public let sitemapPages: SitemapPages

    public struct SitemapPages: Sendable {
        public let site: [URLPath]
        /// Each machine's, by its index; none for a machine not planned.
        public let machines: [[URLPath]]
        /// How many pages each machine's sitemap lists, by its index.
        public let listed: [Int]

        /// Files a list of `count` pages takes.
        package static func parts(_ count: Int) -> Int { Pagination.pageCount(count, Pagination.sitemapLimit) }

        package static func slice(_ pages: [URLPath], part number: Int) -> ArraySlice<URLPath> {
            pages.dropFirst((number - 1) * Pagination.sitemapLimit).prefix(Pagination.sitemapLimit)
        }
    }

    package static let photosPerPage = Pagination.photosPerPage

    /// Plans the pages and files of `content` themed by `theme`, with the images the image stage made.
    ///
    /// The machines in `carried` are not planned: the build store vouches that their bundles
    /// and the settings are those their published outputs were planned from, so only what they
    /// come to is taken from it (their photos, for the site's gallery; their sitemap's length).
    package init(content: SiteContent, theme: Theme, images: ProcessedImages, index: SiteIndex,
                 downloads: [String: MachineDownload], carried: [Int: MachineCounts] = [:]) {
        // The catalog comes in pages like every list that grows with the catalog.
        var pages: [(URLPath, Page)] = (1...Self.pageCount(content.machines.count, content.config.listPageSize)).map { page in
            (Routes.catalog(page: page), .catalog(page: page))
        }
        pages.append((Routes.notFound, .notFound))
        var copies: [Copy] = theme.assets.sorted { $0.key < $1.key }.map { Copy(url: Routes.asset($0.key), source: $0.value.absolutePath) }
        if let icon = content.config.favicon, let type = content.config.faviconExtension {
            copies.append(Copy(url: Routes.favicon(extension: type), source: content.root + "/content/" + icon))
        }
        // Each machine's outputs are planned on its own, on all cores.
        let perPage = content.config.commentsPerPage
        let planning = content.machines.indices.filter { carried[$0] == nil }
        let machinePlans = ParallelMap.map(planning) { m in
            Self.plan(content.machines[m], m, perPage: perPage, images: images, download: downloads[content.machines[m].slug])
        }
        var photoCount = carried.values.reduce(0) { $0 + $1.photos }
        var machineCopies: [Int: Int] = [:]
        for (m, machine) in zip(planning, machinePlans) {
            pages += machine.pages
            copies += machine.copies
            photoCount += machine.photoCount
            machineCopies[m] = machine.copies.count
        }
        for number in 1...Self.pageCount(photoCount, Self.photosPerPage) {
            pages.append((Routes.photos(page: number), .photos(number)))
        }
        // The Help button always has a page to open, even before anyone writes the manual.
        Self.planManual(content.manual, at: Routes.manual, machine: nil, &pages, &copies)
        for m in planning where !content.machines[m].manual.isEmpty {
            let before = copies.count
            Self.planManual(content.machines[m].manual, at: Routes.manual(of: content.machines[m]), machine: m, &pages, &copies)
            machineCopies[m, default: 0] += copies.count - before
        }
        pages.append((Routes.search, .search))
        pages += Self.indexPages(index, size: content.config.listPageSize)
        let sitemaps = Self.planSitemaps(content, carried: carried, &pages)
        sitemapPages = sitemaps
        self.pages = pages
        self.copies = copies
        self.carried = carried
        var counts = Dictionary(uniqueKeysWithValues: zip(planning, machinePlans).map { m, machine in
            (m, MachineCounts(pages: 0, copies: machineCopies[m] ?? 0, listed: sitemaps.listed[m], photos: machine.photoCount,
                              indexed: 0))
        })
        for (_, page) in pages {
            guard let m = page.machine else { continue }
            counts[m]?.pages += 1
            if SearchShards.isIndexed(page) { counts[m]?.indexed += 1 }
        }
        self.planned = counts
    }

    /// What one machine's outputs come to: what the build store keeps of a machine it need
    /// not plan again.
    public struct MachineCounts: Sendable, Equatable {
        public var pages: Int
        public var copies: Int
        /// Its pages its sitemap lists.
        public var listed: Int
        /// Its photos and its parts' that the site publishes.
        public var photos: Int
        /// Its pages the search index holds: they decide how many shards the index has.
        public var indexed: Int
    }

    /// The machines not planned, by index, with what their outputs come to.
    package let carried: [Int: MachineCounts]
    /// The machines planned, by index, with what their outputs come to.
    package let planned: [Int: MachineCounts]
    /// The site's pages and files, the carried machines' with the planned ones.
    package var pageCount: Int { pages.count + carried.values.reduce(0) { $0 + $1.pages } }
    package var copyCount: Int { copies.count + carried.values.reduce(0) { $0 + $1.copies } }

    /// A manual's pages, its contents, print and navigation pages, and its files.
    private static func planManual(_ manual: Manual, at base: URLPath, machine: Int?, _ pages: inout [(URLPath, Page)],
                                   _ copies: inout [Copy]) {
        for (index, page) in manual.pages.enumerated() {
            pages.append((Routes.manualPage(page, in: base), .manual(ManualAddress(machine: machine, output: .page(index)))))
        }
        pages.append((Routes.manualContents(manual, in: base), .manual(ManualAddress(machine: machine, output: .contents))))
        guard !manual.isEmpty else { return }
        pages.append((Routes.manualPrint(in: base), .manual(ManualAddress(machine: machine, output: .print))))
        if !manual.inlineNavigation {
            pages.append((Routes.manualNavigation(in: base), .manual(ManualAddress(machine: machine, output: .navigation))))
        }
        for asset in manual.assets {
            copies.append(Copy(url: Routes.manualAsset(asset, in: base), source: manual.folder.appending(asset).absolutePath))
        }
    }

    /// The parts A-Z, tags and collections, whose lists grow with the catalog and come in pages
    /// of `list_page_size` items.
    private static func indexPages(_ index: SiteIndex, size: Int) -> [(URLPath, Page)] {
        var pages: [(URLPath, Page)] = [(Routes.partsIndex, .partsIndex)]
        for (number, letter) in index.letters.enumerated() {
            for page in 1...pageCount(letter.parts.count, size) {
                pages.append((Routes.parts(letter: letter.key, page: page), .partsLetter(number, page: page)))
            }
        }
        pages.append((Routes.tags, .tags))
        for (number, tag) in index.tags.enumerated() {
            // A tag's machines, then its parts, as one list.
            for page in 1...pageCount(tag.machines.count + tag.parts.count, size) {
                pages.append((Routes.tag(tag.slug, page: page), .tag(number, page: page)))
            }
        }
        for (number, collection) in index.collections.enumerated() {
            for page in 1...pageCount(collection.machines.count, size) {
                pages.append((Routes.collection(collection.slug, page: page), .collection(number, page: page)))
            }
        }
        return pages
    }

    /// The site's documents and its sitemaps: one group of the pages planned so far that are
    /// listed, and one a machine.
    private static func planSitemaps(_ content: SiteContent, carried: [Int: MachineCounts],
                                     _ pages: inout [(URLPath, Page)]) -> SitemapPages {
        var site: [URLPath] = [], machines = Array(repeating: [URLPath](), count: content.machines.count)
        for (url, page) in pages where page.isListedInSitemap {
            if let m = page.machine { machines[m].append(url) } else { site.append(url) }
        }
        let listed = machines.indices.map { carried[$0]?.listed ?? machines[$0].count }
        pages += [(Routes.catalogData, .catalogData), (Routes.catalogSchema, .catalogSchema), (Routes.feed, .feed(nil)),
                  (Routes.sitemap, .sitemap), (Routes.robots, .robots)]
        for number in 1...SitemapPages.parts(site.count) {
            pages.append((Routes.siteSitemap(part: number), .sitemapGroup(machine: nil, part: number)))
        }
        for m in machines.indices where carried[m] == nil {
            for number in 1...SitemapPages.parts(listed[m]) {
                pages.append((Routes.sitemap(of: content.machines[m], part: number), .sitemapGroup(machine: m, part: number)))
            }
        }
        return SitemapPages(site: site, machines: machines, listed: listed)
    }

    package static func pageCount(_ items: Int, _ perPage: Int) -> Int { Pagination.pageCount(items, perPage) }

    /// The pages and files of one machine and its parts, and how many photos they publish.
    private static func plan(_ machine: Machine, _ m: Int, perPage: Int, images: ProcessedImages, download: MachineDownload?)
        -> (pages: [(URLPath, Page)], copies: [Copy], photoCount: Int) {
        var pages: [(URLPath, Page)] = []
        var copies: [Copy] = []
        var photoCount = 0

        func addPhotos(_ photos: [Photo], part p: Int?, owner: URLPath) {
            for (index, photo) in photos.enumerated() {
                guard let processed = images.photo(photo.file.absolutePath) else { continue }
                pages.append((Routes.photo(photo, under: owner), .photo(PhotoAddress(machine: m, part: p, photo: index))))
                for file in PhotoFiles(photo: photo, processed: processed).all {
                    copies.append(Copy(url: Routes.photoFile(photo, under: owner, file.published),
                                       source: images.path(processed.key, file.cached), cached: true))
                }
                photoCount += 1
            }
        }

        let machineURL = Routes.machine(machine)
        for number in 1...Self.pageCount(machine.head.commentCount, perPage) {
            pages.append((Routes.discussion(machineURL, page: number), .machine(m, discussionPage: number)))
        }
        pages.append((Routes.machineData(machine), .machineData(m)))
        pages.append((Routes.machineDiscussion(machine), .machineDiscussion(m)))
        pages.append((Routes.feed(of: machine), .feed(m)))
        if let download {
            copies.append(Copy(url: Routes.download(machine), source: download.bundle.path, cached: true))
            copies.append(Copy(url: Routes.commentsDownload(machine), source: download.comments.path, cached: true))
        }
        if machine.photoCount > 0 { pages.append((Routes.gallery(machineURL), .gallery(m, part: nil))) }
        addPhotos(machine.head.photos, part: nil, owner: machineURL)
        // A machine with a cover photo publishes its composed layers beside it, for its part pages.
        if let stack = images.composedStack(of: machine), !stack.isCover {
            copies.append(Copy(url: Routes.composedStack(machine, width: stack.width, isCover: false), source: stack.file,
                               cached: true))
        }
        if let cover = images.cover(of: machine) {
            for variant in cover.variants {
                for (name, fileExtension) in [(variant.webp, "webp"), (variant.jpeg, "jpg")] {
                    copies.append(Copy(url: Routes.cover(machine, file: PhotoFiles.cover(variant.width, fileExtension)),
                                       source: images.path(cover.key, name), cached: true))
                }
            }
        }
        for (p, part) in machine.outlines.enumerated() {
            let partURL = Routes.part(part, of: machine)
            for number in 1...Self.pageCount(part.commentCount, perPage) {
                pages.append((Routes.discussion(partURL, page: number), .part(m, p, discussionPage: number)))
            }
            if let layer = images.layer(part.layer.image.absolutePath), let published = layer.published {
                copies.append(Copy(url: Routes.layer(part, of: machine, optimized: true),
                                   source: images.path(layer.key, published), cached: true))
            } else {
                copies.append(Copy(url: Routes.layer(part, of: machine, optimized: false), source: part.layer.image.absolutePath))
            }
            if !part.photos.isEmpty { pages.append((Routes.gallery(partURL), .gallery(m, part: p))) }
            addPhotos(part.photos, part: p, owner: partURL)
        }
        return (pages, copies, photoCount)
    }
}
