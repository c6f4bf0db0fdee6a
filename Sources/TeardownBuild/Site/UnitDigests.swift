import TeardownBase
import TeardownContent
import TeardownMedia

/// Every unit outputs can read (`InputUnit`), each named by a key that outlives the build
/// (slugs, not numbers) and digested from its value. Two builds that give a unit one digest
/// show the same thing through it: an output that read only units with unchanged digests is
/// unchanged.
///
/// A machine whose bundle the build store vouches for (`carried`: its signature and the
/// site's settings are those its units were last digested under) is not digested again: its
/// units keep the digests the store holds, and only their keys are made, for the pages that
/// read them, so a comment digests its own machine's units.
package struct UnitDigests: Sendable {
    /// The digests worked out by this build: the site's units and those of every machine not
    /// carried; a tag's pages' only where they are compared (`addTagPages`) or all are written.
    package private(set) var computed: [String: ContentDigest]
    /// The machines (by index) whose units were digested.
    package let computedMachines: [Int]
    private let site: [InputUnit: String]
    private let named: [MachineKeys]
    private let siteManual: ManualUnits
    private let index: SiteIndex
    private let pageSize: Int
    private let numbering: ContentDigest

    /// `carried`: the machines whose stored digests stand; with none, every unit is digested.
    package init(_ site: PlannedSite, carried: Set<Int> = [], allTagPages: Bool = true) {
        var keys: [InputUnit: String] = [.settings: "settings", .search: "search", .machineList: "machines",
                                         .sharedImage: "shared-image", .sitemap: "sitemap"]
        var all: [String: ContentDigest] = [:]
        var settings = Fingerprint()
        settings.add(TeardownVersion.build)
        settings.add(site.content.config.source)
        settings.add(site.baseURL)
        all["settings"] = settings.digest
        var search = Fingerprint()
        switch site.search {
        case .available(let shards): for shard in shards.shards { search.add(shard.folder) }
        case .unavailable(let reason): search.add(reason)
        }
        all["search"] = search.digest
        var list = Fingerprint()
        for machine in site.content.machines { list.add(machine.slug) }
        all["machines"] = list.digest
        var shared = Fingerprint()
        if let image = RenderSource.sharedImage(site.content, images: site.images, baseURL: site.baseURL) {
            shared.add(image.url)
            shared.add(image.width)
            shared.add(image.height)
        }
        all["shared-image"] = shared.digest
        var sitemap = Fingerprint()
        for page in site.plan.sitemapPages.site { sitemap.add(page.value) }
        // The sitemap index names each machine's files by its slug.
        for (machine, listed) in zip(site.content.machines, site.plan.sitemapPages.listed) {
            sitemap.add(machine.slug)
            sitemap.add(SitePlan.SitemapPages.parts(listed))
        }
        all["sitemap"] = sitemap.digest
        (index, pageSize, numbering) = (site.index, site.content.config.listPageSize, list.digest)
        for (unit, key, digest) in Self.listings(site.index, machines: site.content.machines, numbering: list.digest,
                                                 pageSize: pageSize, pages: allTagPages) {
            if let unit { keys[.listing(unit)] = key }
            if let digest { all[key] = digest }
        }
        for (name, digest) in site.theme.templateDigests {
            keys[.template(name)] = "template/" + name
            all["template/" + name] = digest
        }
        let computing = site.content.machines.indices.filter { !carried.contains($0) }
        let digested = ParallelMap.map(computing) { index in
            MachineUnits(site.content.machines[index], manual: site.manuals.machines[index], images: site.images,
                         download: site.downloads[site.content.machines[index].slug],
                         sitemap: site.plan.sitemapPages.machines[index])
        }
        named = site.content.machines.enumerated().map { index, machine in
            MachineKeys(machine, manual: site.manuals.machines[index])
        }
        siteManual = ManualUnits(site.manuals.site, scope: "")
        for units in digested { all.merge(units.all) { first, _ in first } }
        all.merge(siteManual.all) { first, _ in first }
        computed = all
        computedMachines = computing
        self.site = keys
    }

    /// The key of a unit this build's outputs read.
    package func key(of unit: InputUnit) -> String {
        switch unit {
        case .machine(let index, let aspect): named[index].prefix + MachineKeys.aspects[Int(aspect.rawValue)]
        case .part(let machine, let index, let aspect): named[machine].part(index, aspect)
        case .manual(let machine?, let aspect): named[machine].manual(aspect)
        case .manual(nil, let aspect): siteManual.key(of: aspect)
        default: site[unit] ?? "unknown"
        }
    }

    /// The ranges of keys a machine's units are named in: one each for the machine, its parts and its manual.
    package static func keyPrefixes(ofMachine slug: String) -> [String] {
        ["m/" + slug + "/", "p/" + slug + "/", "manual/" + slug + "/"]
    }

    /// The ranges of keys the site's own units are named in, besides the single keys of `siteKeys`.
    package static let sitePrefixes = ["template/", "manual//", "index/"]
    package static let siteKeys = ["settings", "search", "machines", "shared-image", "sitemap"]

    /// Each list of the site index with its key and digest: its items as the stored index
    /// holds them (by number: what an item is, its page reads through the item's machine,
    /// named by slug), with what the list's pages show of it as a whole. No stored list is
    /// decoded for it. An item names its machine by number, so a list holding the same numbers
    /// is the same list only while the numbers name the same machines: each list's digest
    /// holds the machines' order (`numbering`).
    private static func listings(_ index: SiteIndex, machines: [Machine], numbering: ContentDigest, pageSize: Int, pages: Bool)
        -> [(InputUnit.Listing?, String, ContentDigest?)] {
        var lists: [(InputUnit.Listing?, String, ContentDigest?)] = []
        var summary = Fingerprint()
        for (number, tag) in index.tags.enumerated() {
            let named = names(of: tag)
            // What the tags page and the tag's first page say of it.
            var shown = named
            shown.add(tag.machines.count)
            shown.add(tag.parts.count)
            summary.add(shown.digest.description)
            lists.append((.tag(number), "index/tag/" + tag.slug, shown.digest))
            // The whole list, which no page reads: its pages' units are compared with the
            // stored ones only when it changed (`pagePrefix`), so a build that moves no part
            // reads a row a tag, not a row a page.
            var items = named
            items.add(numbering.description)
            items.add(pageSize)
            items.add(SiteIndex.digest(tag.machines).description)
            items.add(SiteIndex.digest(tag.parts).description)
            lists.append((nil, "index/tag/" + tag.slug + "/items", items.digest))
            lists += tagPages(tag, number: number, numbering: numbering, pageSize: pageSize, digested: pages)
        }
        lists.append((.tags, "index/tags", summary.digest))
        var letters = Fingerprint()
        for (number, letter) in index.letters.enumerated() {
            letters.add(letter.key)
            letters.add(letter.parts.count)
            var list = Fingerprint()
            list.add(numbering.description)
            list.add(letter.key)
            list.add(SiteIndex.digest(letter.parts).description)
            lists.append((.letter(number), "index/letter/" + letter.key, list.digest))
        }
        lists.append((.letters, "index/letters", letters.digest))
        var collections = Fingerprint()
        for collection in index.collections {
            collections.add(collection.slug)
            collections.add(collection.title)
            collections.add(collection.description)
            collections.add(collection.machines.count)
            for machine in collection.machines { collections.add(machines[machine].slug) }
        }
        lists.append((.collections, "index/collections", collections.digest))
        return lists
    }
}

extension UnitDigests {
    /// Each page of a tag's list, paginated as one list, the machines then the parts: its
    /// items as the stored index holds them (undecoded), where they are in the list and how
    /// many pages it takes, with the tag's names.
    fileprivate static func tagPages(_ tag: SiteIndex.Tag, number: Int, numbering: ContentDigest, pageSize: Int, digested: Bool)
        -> [(InputUnit.Listing?, String, ContentDigest?)] {
        let machines = tag.machines.count, total = machines + tag.parts.count
        let pages = Pagination.pageCount(total, pageSize)
        var named = names(of: tag)
        named.add(numbering.description)
        return (1...pages).map { page in
            let key = pagePrefix + tag.slug + "/\(page)"
            guard digested else { return (.tagPage(number, page), key, nil) }
            let start = min(total, (page - 1) * pageSize), end = min(total, start + pageSize)
            var listed = named
            listed.add(pages)
            listed.add(start)
            listed.add(end)
            listed.add(SiteIndex.digest(tag.machines, min(start, machines)..<min(end, machines)).description)
            listed.add(SiteIndex.digest(tag.parts, max(start, machines) - machines..<max(end, machines) - machines).description)
            return (.tagPage(number, page), key, listed.digest)
        }
    }

    /// What a tag's pages say of it whatever they list: its slug and its names.
    fileprivate static func names(of tag: SiteIndex.Tag) -> Fingerprint {
        var named = Fingerprint()
        named.add(tag.slug)
        named.add(tag.names.count)
        for name in tag.names { named.add(name) }
        return named
    }

    /// Digests the pages of the tags under `prefixes` (`pagePrefixes`): a build that carried
    /// machines works out only the pages it compares.
    package mutating func addTagPages(under prefixes: [String]) {
        let slugs = Set(prefixes.map { String($0.dropFirst(Self.pagePrefix.count).dropLast()) })
        for (number, tag) in index.tags.enumerated() where slugs.contains(tag.slug) {
            for (_, key, digest) in Self.tagPages(tag, number: number, numbering: numbering, pageSize: pageSize, digested: true) {
                computed[key] = digest
            }
        }
    }

    /// Where the units of tags' pages are named: apart from `sitePrefixes`, read by tag.
    package static let pagePrefix = "index-page/tag/"

    /// The ranges of page units to compare for the changed keys: those of each tag whose
    /// whole list changed (its `items` key).
    package static func pagePrefixes(changed: [String]) -> [String] {
        changed.compactMap { key in
            guard key.hasPrefix("index/tag/"), key.hasSuffix("/items") else { return nil }
            return pagePrefix + key.dropFirst("index/tag/".count).dropLast("items".count)
        }
    }
}

/// The keys of one machine's units, made without digesting them.
struct MachineKeys: Sendable {
    package static let aspects = ["head", "text", "photos", "counts", "cover", "download", "feed", "comments-download", "gallery",
                          "description", "sitemap"]

    package let prefix: String
    private let partPrefix: String
    /// Its parts' slugs are read from its head when a part's unit is named: most machines of a
    /// build are carried, and their heads not decoded.
    private let machine: Machine
    private let manualScope: String
    private let manualPages: [String]

    package init(_ machine: Machine, manual: RenderedManual?) {
        prefix = "m/" + machine.slug + "/"
        partPrefix = "p/" + machine.slug + "/"
        self.machine = machine
        manualScope = "manual/" + machine.slug + "/"
        manualPages = manual?.manual.pages.map(\.slug) ?? []
    }

    package func part(_ index: Int, _ aspect: InputUnit.PartAspect) -> String {
        switch aspect {
        case .text: partPrefix + machine.outlines[index].slug + "/text"
        case .photos: partPrefix + machine.outlines[index].slug + "/photos"
        case .description: partPrefix + machine.outlines[index].slug + "/description"
        case .facts: partPrefix + machine.outlines[index].slug + "/facts"
        }
    }

    package func manual(_ aspect: InputUnit.ManualAspect) -> String {
        switch aspect {
        case .navigation: manualScope + "nav"
        case .page(let index): manualScope + "page/" + manualPages[index]
        }
    }
}

/// The units of one manual: its navigation, and each page's text.
struct ManualUnits: Sendable {
    package let navigationKey: String
    package let pageKeys: [String]
    package let all: [String: ContentDigest]

    package init(_ book: RenderedManual, scope: String) {
        let prefix = "manual/" + scope + "/"
        var navigation = Fingerprint()
        let manual = book.manual
        for entry in manual.entries {
            navigation.add(entry.title)
            navigation.add("\(entry.kind):\(entry.depth):\(entry.parent ?? -1)")
        }
        for page in manual.pages {
            navigation.add(page.slug)
            navigation.add(page.path.joined(separator: "/"))
            navigation.add(page.title)
            navigation.add(page.body.file.displayPath)
        }
        navigation.add(manual.order.map(String.init).joined(separator: ","))
        navigation.add(manual.listedCount)
        // Which anchors exist decides how links between pages are written.
        for anchors in book.anchors { navigation.add(anchors.joined(separator: " ")) }
        for asset in manual.assets { navigation.add(asset) }
        navigationKey = prefix + "nav"
        pageKeys = manual.pages.map { prefix + "page/" + $0.slug }
        var all = [navigationKey: navigation.digest]
        for (key, page) in zip(pageKeys, manual.pages) { all[key] = ContentDigest(of: page.body.text) }
        self.all = all
    }

    package init(empty scope: String) {
        navigationKey = "manual/" + scope + "/nav"
        pageKeys = []
        all = [navigationKey: ContentDigest(of: "")]
    }

    package func key(of aspect: InputUnit.ManualAspect) -> String {
        switch aspect {
        case .navigation: navigationKey
        case .page(let index): pageKeys[index]
        }
    }
}
