/// For every planned output, a digest of everything it is made from: the content it shows,
/// the templates it is rendered with, site.yaml, and the version of Teardown. Two builds that
/// give an output the same digest write the same bytes, so the second one can skip it.
struct OutputFingerprints: Sendable {
    let pages: [ContentDigest]
    let copies: [ContentDigest]

    init(plan: SitePlan, content: SiteContent, theme: Theme, images: ProcessedImages, manuals: ManualSet,
         search: SearchAvailability, baseURL: String, downloads: [String: BundleDownload]) {
        var site = Fingerprint()
        site.add(TeardownVersion.build)
        site.add(content.config.source)
        site.add(baseURL)
        site.add(search.isAvailable ? "search" : "no search")
        // A page without an image of its own is shared with the first machine's cover, by an
        // address that names that machine: two machines can have covers with one key.
        let shared = content.machines.first { images.cover(of: $0) != nil }
        site.add(shared.flatMap { images.cover(of: $0)?.key })
        site.add(shared?.slug)
        let siteDigest = site.digest

        // Per-machine digests are computed once: every page of a machine reuses them.
        let machines = ParallelMap.map(content.machines) { MachineDigests($0, images: images) }
        var everyPhoto = Fingerprint()
        for machine in machines {
            everyPhoto.add(machine.stack)
            everyPhoto.add(machine.allPhotos)
        }
        let allPhotos = everyPhoto.digest
        // What the indexes show of every machine: names and tags (in the stack), counts and covers.
        var everyCard = Fingerprint()
        for machine in machines {
            everyCard.add(machine.stack)
            everyCard.add(machine.counts)
            everyCard.add(machine.cover)
        }
        let allCards = everyCard.digest
        // The A-Z index and the list of tags show only names and tags.
        var everyStack = Fingerprint()
        for machine in machines { everyStack.add(machine.stack) }
        let allStacks = everyStack.digest
        // Everything a feed or catalog.json shows of one machine.
        let community = machines.map { machine in
            var fingerprint = Fingerprint()
            fingerprint.add(machine.stack)
            fingerprint.add(machine.discussion)
            for part in machine.parts { fingerprint.add(part) }
            fingerprint.add(machine.allPhotos)
            return fingerprint.digest
        }
        var sitemap = Fingerprint()
        for page in plan.sitemapPages { sitemap.add(page.value) }
        let sitemapDigest = sitemap.digest
        let siteManual = ManualDigests(manuals.site, machine: nil)
        let machineManuals = manuals.machines.mapValues { ManualDigests($0, machine: content.machines[$0.machine!].name) }

        pages = ParallelMap.map(plan.pages) { entry in
            var fingerprint = Fingerprint()
            fingerprint.add(siteDigest)
            fingerprint.add(entry.url.value)
            switch entry.page {
            case .catalog:
                fingerprint.add(theme.digest(of: "catalog"))
                for machine in machines {
                    fingerprint.add(machine.stack)
                    fingerprint.add(machine.counts)
                    fingerprint.add(machine.cover)
                }
            case .machine(let index, let number):
                let machine = machines[index]
                fingerprint.add(theme.digest(of: "machine"))
                fingerprint.add(content.machines[index].manual.isEmpty)
                fingerprint.add(machine.stack)
                fingerprint.add(machine.counts)
                fingerprint.add(machine.discussion)
                fingerprint.add(downloads[content.machines[index].slug]?.sha256)
                fingerprint.add(downloads[content.machines[index].slug]?.size ?? 0)
                fingerprint.add(number)
            case .part(let machineIndex, let partIndex, let number):
                let machine = machines[machineIndex]
                fingerprint.add(theme.digest(of: "part"))
                fingerprint.add(machine.stack)
                fingerprint.add(machine.cover)
                fingerprint.add(machine.parts[partIndex])
                fingerprint.add(machine.partPhotos[partIndex])
                fingerprint.add(number)
            case .gallery(let index, let part):
                let machine = machines[index]
                fingerprint.add(theme.digest(of: "gallery"))
                fingerprint.add(machine.stack)
                fingerprint.add(part.map { machine.partPhotos[$0] } ?? machine.allPhotos)
            case .photo(let address):
                let machine = machines[address.machine]
                fingerprint.add(theme.digest(of: "photo"))
                fingerprint.add(machine.stack)
                fingerprint.add(address.part.map { machine.partPhotos[$0] } ?? machine.photos)
                fingerprint.add(address.photo)
            case .photos(let number):
                fingerprint.add(theme.digest(of: "gallery"))
                fingerprint.add(allPhotos)
                fingerprint.add(number)
            case .machineData(let index):
                // Details & Discuss and Photos show descriptions, the newest comments and photos.
                fingerprint.add(machines[index].stack)
                fingerprint.add(machines[index].counts)
                fingerprint.add(machines[index].discussion)
                for part in machines[index].parts { fingerprint.add(part) }
            case .manual(let address):
                let manual = address.machine.flatMap { machineManuals[$0] } ?? siteManual
                fingerprint.add(manual.navigation)
                switch address.output {
                case .page(let index):
                    fingerprint.add(theme.digest(of: "manual"))
                    fingerprint.add(manual.pages[index])
                case .contents: fingerprint.add(theme.digest(of: "manual"))
                case .print:
                    fingerprint.add(theme.digest(of: "manual-print"))
                    fingerprint.add(manual.allPages)
                case .navigation: break
                }
            case .search:
                fingerprint.add(theme.digest(of: "search"))
                for shard in search.shards?.shards ?? [] { fingerprint.add(shard.folder) }
            case .catalogData:
                for (index, machine) in content.machines.enumerated() {
                    fingerprint.add(community[index])
                    fingerprint.add(machines[index].cover)
                    fingerprint.add(downloads[machine.slug]?.sha256)
                    fingerprint.add(downloads[machine.slug]?.size ?? 0)
                }
            case .catalogSchema, .robots:
                break
            case .feed(let index):
                for digest in index.map({ [community[$0]] }) ?? community { fingerprint.add(digest) }
            case .sitemap, .sitemapPart:
                fingerprint.add(sitemapDigest)
            case .partsIndex, .partsLetter, .tags:
                fingerprint.add(theme.digest(of: Self.template(of: entry.page)))
                fingerprint.add(allStacks)
            case .tag, .collection:
                fingerprint.add(theme.digest(of: Self.template(of: entry.page)))
                fingerprint.add(allCards)
            case .notFound:
                fingerprint.add(theme.digest(of: "not-found"))
            }
            return fingerprint.digest
        }
        copies = ParallelMap.map(plan.copies) { copy in
            var fingerprint = Fingerprint()
            fingerprint.add(copy.source)
            // A cached file's path says it all (and linking it changes its ctime).
            if !copy.cached, let stamp = FileSystem.stamp(of: copy.source) {
                fingerprint.add(stamp)
            }
            return fingerprint.digest
        }
    }
}

extension OutputFingerprints {
    private static func template(of page: SitePlan.Page) -> String {
        switch page {
        case .partsIndex, .partsLetter: "parts"
        case .tags: "tags-index"
        case .tag: "tag"
        default: "collection"
        }
    }

    /// For each shard of the search index, one digest of every page it indexes and of the
    /// indexer itself: when it is unchanged, so is the shard.
    func searchShards(_ shards: SearchShards, plan: SitePlan, indexer: String) -> [ContentDigest] {
        var fingerprints = shards.shards.map { shard in
            var fingerprint = Fingerprint()
            fingerprint.add(indexer)
            fingerprint.add(shard.folder)
            fingerprint.add(shard.glob)
            return fingerprint
        }
        for (entry, digest) in zip(plan.pages, pages) {
            guard let shard = shards.shard(of: entry.page) else { continue }
            fingerprints[shard].add(entry.url.value)
            fingerprints[shard].add(digest)
        }
        return fingerprints.map(\.digest)
    }
}

/// Digests of one manual: what every page of it shows (the tree, titles, files), and each page's text.
private struct ManualDigests: Sendable {
    let navigation: ContentDigest
    let pages: [ContentDigest]
    let allPages: ContentDigest

    init(_ book: RenderedManual, machine: String?) {
        var navigation = Fingerprint()
        navigation.add(machine ?? "")
        for entry in book.manual.entries {
            navigation.add(entry.title)
            navigation.add("\(entry.kind):\(entry.depth):\(entry.parent ?? -1)")
        }
        for page in book.manual.pages {
            navigation.add(page.slug)
            navigation.add(page.title)
            navigation.add(page.body.file.displayPath)
        }
        navigation.add(book.manual.order.map(String.init).joined(separator: ","))
        // Which anchors exist decides how links between pages are written.
        for anchors in book.anchors { navigation.add(anchors.joined(separator: " ")) }
        for asset in book.manual.assets { navigation.add(asset) }
        self.navigation = navigation.digest
        pages = book.manual.pages.map { ContentDigest(of: $0.body.text) }
        var all = Fingerprint()
        for page in pages { all.add(page) }
        allPages = all.digest
    }
}

/// Digests of one machine's content, grouped by which pages show it.
private struct MachineDigests: Sendable {
    /// machine.yaml and every part's name and layer: shown on all of the machine's pages.
    let stack: ContentDigest
    /// Comment and photo counts per part: the machine page and the catalog show them.
    let counts: ContentDigest
    /// The machine's description, comments and photos.
    let discussion: ContentDigest
    /// Each part's own description and comments.
    let parts: [ContentDigest]
    /// The machine's own photos, each part's, and all of them: galleries and photo pages show them.
    let photos: ContentDigest
    let partPhotos: [ContentDigest]
    let allPhotos: ContentDigest
    /// The cover the catalog card shows.
    let cover: ContentDigest

    init(_ machine: Machine, images: ProcessedImages) {
        var stack = Fingerprint()
        stack.add(machine.slug)
        stack.add(machine.source)
        var counts = Fingerprint()
        counts.add(machine.community.comments.count)
        counts.add(machine.community.photos.count)
        for part in machine.parts {
            stack.add(part.slug)
            stack.add(part.source)
            // A layer's size is read from the image, so the image is an input of the stack.
            stack.add(FileSystem.stamp(of: part.layer.image.absolutePath) ?? ContentDigest(high: 0, low: 0))
            // Whether the layer is published as an optimized copy changes its URL.
            stack.add(images.isOptimized(part.layer))
            counts.add(part.community.comments.count)
            counts.add(part.community.photos.count)
        }
        self.stack = stack.digest
        self.counts = counts.digest
        discussion = Self.digest(machine.description, machine.community, images)
        parts = machine.parts.map { part in
            var fingerprint = Fingerprint()
            fingerprint.add(part.slug)
            fingerprint.add(Self.digest(part.description, part.community, images))
            return fingerprint.digest
        }
        photos = Self.digest(machine.community.photos, images)
        partPhotos = machine.parts.map { Self.digest($0.community.photos, images) }
        var all = Fingerprint()
        all.add(photos)
        for digest in partPhotos { all.add(digest) }
        allPhotos = all.digest
        var cover = Fingerprint()
        cover.add(images.cover(of: machine)?.key)
        self.cover = cover.digest
    }

    private static func digest(_ photos: [Photo], _ images: ProcessedImages) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(photos.count)
        for photo in photos {
            fingerprint.add(photo.file.name)
            fingerprint.add(photo.caption)
            fingerprint.add(photo.author)
            fingerprint.add(photo.date?.text)
            fingerprint.add(photo.credit)
            fingerprint.add(photo.license)
            fingerprint.add(photo.showsLocation)
            fingerprint.add(images.photos[photo.file.absolutePath]?.key)
        }
        return fingerprint.digest
    }

    private static func digest(_ description: MarkdownSource?, _ community: Community, _ images: ProcessedImages) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(description?.text)
        fingerprint.add(community.comments.count)
        for comment in community.comments {
            fingerprint.add(comment.id)
            fingerprint.add(comment.author)
            fingerprint.add(comment.date.text)
            fingerprint.add(comment.body.text)
        }
        fingerprint.add(digest(community.photos, images))
        return fingerprint.digest
    }
}
