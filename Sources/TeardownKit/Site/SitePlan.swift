/// Every output of a build, decided before anything is rendered.
public struct SitePlan: Sendable {
    /// A page to render, and from which content.
    public enum Page: Sendable, Hashable {
        case catalog
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
        /// sitemap.xml: every page, or the index of its parts when there are too many for one file.
        case sitemap
        /// Part `number` (1-based) of a long sitemap.
        case sitemapPart(Int)
        case robots
        /// The A-Z index of parts: its tabs, and the page of one letter of `SiteIndex.letters`.
        case partsIndex
        case partsLetter(Int)
        /// Every tag, and the page of one tag of `SiteIndex.tags`.
        case tags
        case tag(Int)
        /// A collection of `SiteIndex.collections`.
        case collection(Int)
    }

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
    /// The pages a sitemap lists, in plan order.
    public let sitemapPages: [URLPath]

    /// The most addresses one sitemap file may hold (sitemaps.org).
    static let sitemapLimit = 50_000

    /// Photos on each page of the site-wide gallery.
    static let photosPerPage = 24

    /// Plans the pages and files of `content` themed by `theme`, with the images the image stage made.
    init(content: SiteContent, theme: Theme, images: ProcessedImages, index: SiteIndex, downloads: [String: BundleDownload]) {
        var pages: [(URLPath, Page)] = [(Routes.catalog, .catalog), (Routes.notFound, .notFound)]
        var copies: [Copy] = theme.assets.sorted { $0.key < $1.key }.map { Copy(url: Routes.asset($0.key), source: $0.value.absolutePath) }
        let perPage = content.config.commentsPerPage
        var photoCount = 0

        func addPhotos(_ photos: [Photo], machine m: Int, part p: Int?, owner: URLPath) {
            for (index, photo) in photos.enumerated() {
                guard let processed = images.photos[photo.file.absolutePath] else { continue }
                pages.append((Routes.photo(photo, under: owner), .photo(PhotoAddress(machine: m, part: p, photo: index))))
                for file in PhotoFiles(photo: photo, processed: processed).all {
                    copies.append(Copy(url: Routes.photoFile(photo, under: owner, file.published),
                                       source: images.path(processed.key, file.cached), cached: true))
                }
                photoCount += 1
            }
        }

        for (m, machine) in content.machines.enumerated() {
            let machineURL = Routes.machine(machine)
            for number in 1...Self.pageCount(machine.community.comments.count, perPage) {
                pages.append((Routes.discussion(machineURL, page: number), .machine(m, discussionPage: number)))
            }
            pages.append((Routes.machineData(machine), .machineData(m)))
            pages.append((Routes.feed(of: machine), .feed(m)))
            if let download = downloads[machine.slug] {
                copies.append(Copy(url: Routes.download(machine), source: download.path, cached: true))
            }
            if machine.photoCount > 0 { pages.append((Routes.gallery(machineURL), .gallery(m, part: nil))) }
            addPhotos(machine.community.photos, machine: m, part: nil, owner: machineURL)
            if let cover = images.cover(of: machine) {
                for variant in cover.variants {
                    for (name, fileExtension) in [(variant.webp, "webp"), (variant.jpeg, "jpg")] {
                        copies.append(Copy(url: Routes.cover(machine, file: PhotoFiles.cover(variant.width, fileExtension)),
                                           source: images.path(cover.key, name), cached: true))
                    }
                }
            }
            for (p, part) in machine.parts.enumerated() {
                let partURL = Routes.part(part, of: machine)
                for number in 1...Self.pageCount(part.community.comments.count, perPage) {
                    pages.append((Routes.discussion(partURL, page: number), .part(m, p, discussionPage: number)))
                }
                if let layer = images.layers[part.layer.image.absolutePath], let published = layer.published {
                    copies.append(Copy(url: Routes.layer(part, of: machine, optimized: true),
                                       source: images.path(layer.key, published), cached: true))
                } else {
                    copies.append(Copy(url: Routes.layer(part, of: machine, optimized: false), source: part.layer.image.absolutePath))
                }
                if !part.community.photos.isEmpty { pages.append((Routes.gallery(partURL), .gallery(m, part: p))) }
                addPhotos(part.community.photos, machine: m, part: p, owner: partURL)
            }
        }
        for number in 1...Self.pageCount(photoCount, Self.photosPerPage) {
            pages.append((Routes.photos(page: number), .photos(number)))
        }
        func addManual(_ manual: Manual, at base: URLPath, machine: Int?) {
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
        // The Help button always has a page to open, even before anyone writes the manual.
        addManual(content.manual, at: Routes.manual, machine: nil)
        for (m, machine) in content.machines.enumerated() where !machine.manual.isEmpty {
            addManual(machine.manual, at: Routes.manual(of: machine), machine: m)
        }
        pages.append((Routes.search, .search))
        pages.append((Routes.partsIndex, .partsIndex))
        for (number, letter) in index.letters.enumerated() { pages.append((Routes.parts(letter: letter.key), .partsLetter(number))) }
        pages.append((Routes.tags, .tags))
        for (number, tag) in index.tags.enumerated() { pages.append((Routes.tag(tag.slug), .tag(number))) }
        for (number, collection) in index.collections.enumerated() {
            pages.append((Routes.collection(collection.slug), .collection(number)))
        }
        let listed = pages.filter { $0.1.isListedInSitemap }.map { $0.0 }
        pages += [(Routes.catalogData, .catalogData), (Routes.catalogSchema, .catalogSchema), (Routes.feed, .feed(nil)),
                  (Routes.sitemap, .sitemap), (Routes.robots, .robots)]
        if listed.count > Self.sitemapLimit {
            for number in 1...Self.pageCount(listed.count, Self.sitemapLimit) {
                pages.append((Routes.sitemap(part: number), .sitemapPart(number)))
            }
        }
        self.pages = pages
        self.copies = copies
        self.sitemapPages = listed
    }

    static func pageCount(_ items: Int, _ perPage: Int) -> Int {
        max(1, (items + perPage - 1) / perPage)
    }
}

extension SitePlan.Page {
    /// An HTML page worth a search engine's visit: not data, not a feed, not the 404 page, not
    /// the search page, and not a print page (which repeats its manual).
    var isListedInSitemap: Bool {
        switch self {
        case .catalog, .machine, .part, .gallery, .photo, .photos, .partsIndex, .partsLetter, .tags, .tag, .collection:
            return true
        case .manual(let address):
            switch address.output {
            case .page, .contents: return true
            case .print, .navigation: return false
            }
        case .machineData, .search, .notFound, .catalogData, .catalogSchema, .feed, .sitemap, .sitemapPart, .robots:
            return false
        }
    }

    /// A manual's every page on one page, which search leaves out.
    var isPrintPage: Bool {
        if case .manual(let address) = self, case .print = address.output { return true }
        return false
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
}

/// Where a photo is in the content.
public struct PhotoAddress: Sendable, Hashable {
    public let machine: Int
    public let part: Int?
    public let photo: Int
}

/// The published files of a photo: names beside its page, and where they are in the cache.
struct PhotoFiles {
    let all: [(published: String, cached: String)]

    init(photo: Photo, processed: ProcessedPhoto) {
        var files = processed.variants.flatMap { variant in
            [(Self.variant(photo, variant.width, "webp"), variant.webp), (Self.variant(photo, variant.width, "jpg"), variant.jpeg)]
        }
        if let original = processed.original { files.append((Self.download(photo, processed), original)) }
        all = files
    }

    static func variant(_ photo: Photo, _ width: Int, _ fileExtension: String) -> String {
        "\(photo.file.stem)-\(width).\(fileExtension)"
    }

    /// A copy of a machine's cover, beside its page.
    static func cover(_ width: Int, _ fileExtension: String) -> String { "cover-\(width).\(fileExtension)" }

    /// The stripped original keeps the photo's name, so a download is named like the upload.
    static func download(_ photo: Photo, _ processed: ProcessedPhoto) -> String {
        "\(photo.file.stem).\(processed.format.fileExtension)"
    }
}
