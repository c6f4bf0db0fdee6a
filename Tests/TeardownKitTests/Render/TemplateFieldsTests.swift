import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

/// Templates find model values through `value(named:)`; a property missing there would render
/// as nothing, silently. Every stored property of every model must be reachable by its name.
@Suite("Template fields")
struct TemplateFieldsTests {
    private func unreachable<Model: TemplateObject>(_ model: Model) -> [String] {
        Mirror(reflecting: model).children.compactMap { child in
            guard let label = child.label else { return nil }
            if case .missing = model.value(named: label) { return "\(Model.self).\(label)" }
            return nil
        }
    }

    @Test("Every property of every view model is reachable from templates")
    func everyPropertyReachable() {
        let link = LinkModel(title: "t", url: "u")
        let layer = StackLayerModel(name: "n", url: "u", z: 1, left: "0%", top: "0%", width: "1%", height: "1%", current: true)
        let stack = StackModel(name: "n", width: 1, height: 1, layers: [layer])
        let backdrop = BackdropModel(name: "n", width: 1, height: 1, style: "s")
        let entry = EntryModel(author: "a", date: "d", dateTime: "t", html: "h", isDesigner: false, anchor: "comment-a")
        let pageLink = PaginationModel.PageLink(number: 1, url: "u", current: true, gapBefore: false)
        let pagination = PaginationModel(pages: [pageLink], previous: "p", next: "n")
        let discussion = DiscussionModel(entries: [entry], hasEntries: true, hasComments: true, commentCount: "1", pagination: pagination)
        let picture = PictureModel(webp: "w", jpeg: "j", src: "s", width: 1, height: 1, sizes: "s", alt: "a")
        let photo = PhotoModel(url: "u", picture: picture, large: "l", largeWidth: 1, largeHeight: 1, caption: "c", credit: "c",
                               license: "l", date: "d")
        let card = MachineCardModel(name: "n", url: "u", summary: "s", tags: [link], partCount: "1", commentCount: "1",
                                    photoCount: "1", cover: picture, backdrop: backdrop)
        let feed = FeedLinkModel(title: "t", label: "l", url: "u")
        let layout = LayoutModel(siteTitle: "s", language: "en", pageTitle: "p", shareTitle: "s", description: "d",
                                 canonical: "c", home: "h", help: "h", partsIndex: "p", tags: "t", feeds: [feed],
                                 twitterCard: "summary", stylesheet: "s", schemeScript: "c", icon: "i", iconType: "image/svg+xml", generator: "g", bugReport: "b",
                                 photos: "p", scripts: ["s"], image: SharingImageModel(url: "u", width: 1, height: 1),
                                 search: "s", searchFilters: [SearchFilterModel(name: "n", value: "v")],
                                 section: SectionModel(URLPath("/parts/")))
        let navItem = ManualPageModel.NavItem(title: "t", url: "u", current: true, kind: "page", opens: false, closes: [0])
        var missing: [String] = []
        missing += unreachable(link) + unreachable(layer) + unreachable(stack) + unreachable(backdrop)
        missing += unreachable(entry) + unreachable(pageLink) + unreachable(pagination) + unreachable(discussion)
        missing += unreachable(photo) + unreachable(card) + unreachable(layout) + unreachable(navItem)
        missing += unreachable(feed) + unreachable(SectionModel(URLPath("/parts/")))
        missing += unreachable(CatalogModel(description: "d", machines: [card], hasMachines: true,
                                                collections: [CollectionLinkModel(title: "t", url: "u", description: "d", count: "c")],
                                                pagination: pagination))
        missing += unreachable(CollectionLinkModel(title: "t", url: "u", description: "d", count: "c"))
        missing += unreachable(PartLinkModel(name: "n", url: "u", counts: "c"))
        let conversion = SpecConversionModel(relation: "=", text: "t", note: "n", system: "s")
        missing += unreachable(conversion)
        missing += unreachable(SpecModel(label: "l", value: "v", note: "n", conversions: [conversion]))
        let intake = IntakeFormModel(commentAction: "c", photoAction: "p", machine: "m", part: "p", back: "b", authorMin: 1,
                                     authorMax: 2, commentMin: 3, commentMax: 4, photoMax: "5", held: true)
        missing += unreachable(intake)
        missing += unreachable(MachinePageModel(name: "n", searchTitle: "t", summary: "s", designer: "d", license: "l", updated: "u", tags: [link],
                                                stack: stack, parts: [], discussion: discussion, photos: [photo], hasPhotos: true,
                                                gallery: link, data: "d", download: link, commentsDownload: nil, feed: "f",
                                                manual: link, intake: intake))
        missing += unreachable(PartPageModel(name: "n", searchTitle: "t", machine: link, backdrop: backdrop, layer: layer, specs: [], hasSpecs: false,
                                             unitSwitch: true, tags: [], discussion: discussion, photos: [], hasPhotos: false, gallery: link,
                                             intake: intake))
        missing += unreachable(SearchFilterModel(name: "n", value: "v"))
        let toc = ManualPageModel.TocItem(title: "t", url: "u", level: 2)
        missing += unreachable(toc)
        missing += unreachable(ManualPageModel(title: "t", manualTitle: "m", html: "h", heading: "h", body: "b", toc: [toc], hasToc: true,
                                               navigation: [navItem], hasNavigation: true, navigationData: "n", contents: "c",
                                               breadcrumbs: [link], hasBreadcrumbs: true, previous: link, next: link, edit: "e",
                                               bugReport: "b", print: "p", indexed: true, isContents: false))
        let section = ManualPrintModel.Section(id: "i", html: "h")
        missing += unreachable(section) + unreachable(ManualPrintModel(title: "t", manual: link, sections: [section]))
        missing += unreachable(SearchPageModel(index: "i", worker: "w", merge: "m", unavailable: "u", firstAnswerFiles: 1, firstAnswerFolder: "f"))
        missing += unreachable(NotFoundModel(home: "h"))
        missing += unreachable(picture) + unreachable(SharingImageModel(url: "u", width: 1, height: 1))
        let location = LocationModel(text: "t", map: "m")
        missing += unreachable(location)
        missing += unreachable(PhotoPageModel(title: "t", picture: picture, large: "l", caption: "c", author: "a", credit: "c",
                                              license: "l", date: "d", dateTime: "d", taken: "t", camera: "c", location: location,
                                              machine: link, part: link, gallery: link, download: link, previous: link, next: link))
        missing += unreachable(GalleryPageModel(title: "t", machine: link, part: link, photos: [photo], hasPhotos: true, count: "c",
                                                pagination: pagination))
        missing += unreachable(PageModel(site: layout, page: link))
        let thumbnail = PartThumbnailModel(backdrop: backdrop, layer: layer, window: "w")
        let partEntry = PartEntryModel(name: "n", url: "u", machine: link, thumbnail: thumbnail)
        let group = PartGroupModel(label: "A", url: "u", parts: [partEntry])
        missing += unreachable(thumbnail) + unreachable(group)
        let tab = LetterTabModel(label: "A", url: "u", current: true, count: 1)
        missing += unreachable(partEntry) + unreachable(tab)
        let letterCount = LetterCountModel(label: "A", url: "u", count: "c")
        missing += unreachable(letterCount)
        missing += unreachable(PartsIndexModel(title: "t", index: "i", groups: [group], letterCounts: [letterCount], hasLetterCounts: true,
                                                tabs: [tab], parts: [partEntry], hasParts: true, count: "c", pagination: pagination))
        let tag = TagLinkModel(name: "n", url: "u", count: "c")
        missing += unreachable(tag) + unreachable(TagsModel(tags: [tag], hasTags: true))
        missing += unreachable(TagPageModel(name: "n", machines: [card], hasMachines: true, parts: [partEntry], hasParts: true,
                                            all: "a", pagination: pagination))
        missing += unreachable(CollectionPageModel(title: "t", description: "d", machines: [card], hasMachines: true,
                                                   pagination: pagination))
        #expect(missing == [])
    }

    @Test("Escaping in templates matches Mustache's: the five special characters, nothing else")
    func escaping() {
        #expect(HTMLEscaping.escape("plain text, ünïcode") == "plain text, ünïcode")
        #expect(HTMLEscaping.escape("<a href=\"x\">Tom & Jerry's</a>") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
    }
}
