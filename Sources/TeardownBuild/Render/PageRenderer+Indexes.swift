import TeardownContent

/// The pages that cut across machines: the A-Z index of parts, tags and collections.
extension PageRenderer {
    package func indexPage(_ page: PageAddress, at url: URLPath) -> String {
        switch page {
        case .partsIndex:
            let model = partsIndex(letter: nil, page: 1, at: url)
            return theme.render("parts", self.model(url, title: model.title, description: "Every part of every machine, A to Z.", model))
        case .partsLetter(let number, let page):
            let model = partsIndex(letter: number, page: page, at: url)
            return theme.render("parts", self.model(url, title: Self.title(model.title, page: page), description: model.count, model))
        case .tags:
            let tags = index.tags.map { tag in
                TagLinkModel(name: tag.names.joined(separator: ", "), url: Routes.tag(tag.slug).relative(from: url),
                             count: counts(machines: tag.machines.count, parts: tag.parts.count))
            }
            return theme.render("tags-index", model(url, title: "Tags", description: "Machines and parts by tag.",
                                                    TagsModel(tags: tags, hasTags: !tags.isEmpty)))
        case .tag(let number, let page):
            let tag = index.tag(number, page: page)
            let name = tag.names.joined(separator: ", ")
            // One list, paginated as one: the machines, then the parts. Only the page's own
            // items are taken: a tag of a large catalog has more items than its pages have.
            let total = tag.machines.count + tag.parts.count
            let (listed, pagination) = self.page(page, count: total, at: url) { Routes.tag(tag.slug, page: $0) }
            // The first page says how many; a later one says which page it is, so it changes
            // only when the items it shows do.
            let counted = page == 1 ? index.tag(number) : nil
            let description = counted.map { counts(machines: $0.machines.count, parts: $0.parts.count) }
                ?? "Page \(page) of \(Pagination.pageCount(total, content.config.listPageSize)) of what is tagged “\(name)”."

            let split = tag.machines.count
            let machines = listed.lowerBound < split ? Array(tag.machines.elements[listed.lowerBound..<min(split, listed.upperBound)]) : []
            let parts = listed.upperBound > split
                ? Array(tag.parts.elements[max(listed.lowerBound, split) - split..<listed.upperBound - split]) : []
            let model = TagPageModel(
                name: name, machines: machines.map { card($0, at: url, community: false) }, hasMachines: !machines.isEmpty,
                parts: parts.map { entry($0, at: url) }, hasParts: !parts.isEmpty,
                all: Routes.tags.relative(from: url), pagination: pagination)
            return theme.render("tag", self.model(url, title: Self.title("Tagged \(name)", page: page),
                                                  description: description, model))
        case .collection(let number, let page):
            let collection = index.collections[number]  // Small, and read whole: site.yaml lists them.
            let (machines, pagination) = self.page(page, of: collection.machines, at: url) {
                Routes.collection(collection.slug, page: $0)
            }
            let model = CollectionPageModel(
                title: collection.title, description: collection.description,
                machines: machines.map { card($0, at: url, community: false) }, hasMachines: !collection.machines.isEmpty,
                pagination: pagination)
            return theme.render("collection", self.model(url, title: Self.title(collection.title, page: page),
                                                         description: collection.description.isEmpty
                                                             ? Plural.count(collection.machines.count, "machine") : collection.description,
                                                         image: collection.machines.first.flatMap { m in
                                                             images.cover(of: content.machines[m]).map { sharingImage($0, of: content.machines[m]) }
                                                         },
                                                         model))
        default:
            return ""
        }
    }

    /// Page `number` of a list, `list_page_size` items a page, and the links to its other pages.
    package func page<Item>(_ number: Int, of items: [Item], at url: URLPath,
                            route: (Int) -> URLPath) -> ([Item], PaginationModel?) {
        let (range, pagination) = page(number, count: items.count, at: url, route: route)
        return (Array(items[range]), pagination)
    }

    /// Where page `number` of a list of `count` items is in it, and the links to its other pages.
    package func page(_ number: Int, count: Int, at url: URLPath, route: (Int) -> URLPath) -> (Range<Int>, PaginationModel?) {
        let size = content.config.listPageSize
        let pages = Pagination.pageCount(count, size)
        let start = min(count, (min(number, pages) - 1) * size)
        return (start..<min(count, start + size), Self.pagination(pages, current: number) { route($0).relative(from: url) })
    }

    /// A later page's title says which page it is, so search results and tabs tell them apart.
    private static func title(_ title: String, page: Int) -> String {
        page > 1 ? "\(title), page \(page)" : title
    }

    /// The card file's tabs, every letter shown, those with parts linked; and page `page` of the parts of `letter`.
    private func partsIndex(letter number: Int?, page: Int, at url: URLPath) -> PartsIndexModel {
        let current = number.map { index.letter($0) }
        let letters = index.letters
        let byKey = Dictionary(uniqueKeysWithValues: letters.map { ($0.key, $0) })
        let tabs = (SiteIndex.alphabet + ["other"]).map { key in
            let letter = byKey[key]
            return LetterTabModel(label: key == "other" ? "#" : key.uppercased(),
                                  url: letter.map { Routes.parts(letter: $0.key).relative(from: url) },
                                  current: key == current?.key, count: letter?.parts.count ?? 0)
        }
        let total = letters.reduce(0) { $0 + $1.parts.count }
        let (listed, pagination) = current.map { letter in
            self.page(page, of: letter.parts.elements, at: url) { Routes.parts(letter: letter.key, page: $0) }
        } ?? ([], nil)
        let parts = listed.map { entry($0, at: url) }
        // The index's own page lists every part when they fit on one page; a larger catalog
        // offers the letters only.
        let groups = current == nil && total <= Self.partsListedOnIndex
            ? letters.indices.map { number -> PartGroupModel in
                let letter = index.letter(number)
                return PartGroupModel(label: letter.key == "other" ? "#" : letter.label,
                                      url: Routes.parts(letter: letter.key).relative(from: url),
                                      parts: letter.parts.map { entry($0, at: url) })
            }
            : []
        // A larger catalog's own page says how many parts each letter holds, rather than
        // leaving the tabs over an empty page.
        let letterCounts = current == nil && total > Self.partsListedOnIndex
            ? letters.map { letter in
                LetterCountModel(label: letter.key == "other" ? "#" : letter.label,
                                 url: Routes.parts(letter: letter.key).relative(from: url),
                                 count: Plural.count(letter.parts.count, "part"))
            }
            : []
        return PartsIndexModel(
            title: current.map { $0.key == "other" ? "Parts not starting with a letter" : "Parts: \($0.label)" } ?? "Parts A–Z",
            index: current == nil ? nil : Routes.partsIndex.relative(from: url), groups: groups,
            letterCounts: letterCounts, hasLetterCounts: !letterCounts.isEmpty,
            tabs: tabs, parts: parts, hasParts: !parts.isEmpty,
            count: Plural.count(current?.parts.count ?? total, "part"), pagination: pagination)
    }

    /// How many parts the A-Z index's own page lists before it offers only its letters.
    package static let partsListedOnIndex = 300

    /// A part's entry, from its machine's summary: a list names parts of many machines, and
    /// reads no machine's head.
    private func entry(_ address: SiteIndex.PartAddress, at url: URLPath) -> PartEntryModel {
        let machine = summary(of: address.machine)
        let part = machine.parts[address.part]
        // The machine's link is the prefix its layers' URLs take (`prefix(_:at:)`), made once.
        let machineURL = Routes.machine(machine).relative(from: url)
        let prefix = machineURL == "./" ? "" : machineURL
        return PartEntryModel(name: part.name, url: Routes.part(slug: part.slug, of: machine).relative(from: url),
                              machine: LinkModel(title: machine.name, url: machineURL),
                              thumbnail: StackLayout.thumbnail(of: address.part, in: machine, prefix: prefix, at: url)
                                  ?? thumbnail(address, of: machine, prefix: prefix, at: url))
    }

    /// A part's thumbnail over its machine drawn layer by layer, from the machine's layout.
    private func thumbnail(_ address: SiteIndex.PartAddress, of machine: MachineSummary, prefix: String,
                           at url: URLPath) -> PartThumbnailModel {
        let part = machine.parts[address.part]
        let layout = stack(of: address.machine)
        return PartThumbnailModel(
            backdrop: layout.backdrop(prefix: prefix, excluding: address.part),
            layer: layout.layer(address.part, url: Routes.layer(part.layer, of: machine).relative(from: url)),
            window: layout.window(around: part.opaque))
    }

    private func counts(machines: Int, parts: Int) -> String {
        Plural.list((machines, "machine"), (parts, "part")) ?? ""
    }
}
