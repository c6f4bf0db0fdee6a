import Foundation

/// Turns one planned page into HTML: builds its view model, then renders its template.
struct PageRenderer: Sendable {
    let content: SiteContent
    let theme: Theme
    let markdown = MarkdownRenderer()
    /// The base URL pages are published at, for canonical links.
    let baseURL: String
    /// Each machine's layers, laid out once: every page of a machine and its parts shows them.
    private let stacks: [StackLayout]

    init(content: SiteContent, theme: Theme, baseURL: String) {
        self.content = content
        self.theme = theme
        self.baseURL = baseURL
        self.stacks = content.machines.map(StackLayout.init)
    }

    func render(_ page: SitePlan.Page, at url: URLPath) -> String {
        switch page {
        case .catalog:
            return theme.render("catalog", model(url, title: nil, description: content.config.description, catalog(at: url)))
        case .machine(let index, let number):
            let machine = content.machines[index]
            return theme.render("machine", model(url, title: machine.name, description: machine.summary,
                                                 machinePage(index, page: number, at: url)))
        case .part(let machineIndex, let partIndex, let number):
            let machine = content.machines[machineIndex]
            let part = machine.parts[partIndex]
            return theme.render("part", model(url, title: "\(part.name) — \(machine.name)", description: part.name,
                                              partPage(partIndex, of: machineIndex, page: number, at: url)))
        case .manual(let index):
            let page = manualPage(index, at: url)
            return theme.render("manual", model(url, title: page.title, description: "", page))
        case .notFound:
            // A 404 page is served at any depth, so its links are absolute paths from the base URL.
            let base = SiteConfig.basePath(of: baseURL)
            return theme.render("not-found", PageModel(site: layout(url, title: "Page not found", description: "", absoluteBase: base),
                                                       page: NotFoundModel(home: base)))
        }
    }

    private func model<Body: Sendable>(_ url: URLPath, title: String?, description: String, _ body: Body) -> PageModel<Body> {
        PageModel(site: layout(url, title: title, description: description, absoluteBase: nil), page: body)
    }

    private func layout(_ url: URLPath, title: String?, description: String, absoluteBase: String?) -> LayoutModel {
        func link(_ target: URLPath) -> String {
            absoluteBase.map { $0 + target.value.dropFirst() } ?? target.relative(from: url)
        }
        let siteTitle = content.config.title
        return LayoutModel(
            siteTitle: siteTitle,
            language: content.config.language,
            pageTitle: title.map { "\($0) · \(siteTitle)" } ?? siteTitle,
            description: description,
            canonical: baseURL + url.value.dropFirst(),
            home: link(Routes.catalog),
            help: link(Routes.manual),
            stylesheet: link(Routes.asset("style.css")),
            generator: "Teardown \(TeardownVersion.current)",
            bugReport: content.config.bugReportURL
        )
    }

    // MARK: Catalog and machines

    private func catalog(at url: URLPath) -> CatalogModel {
        let cards = content.machines.enumerated().map { index, machine in
            MachineCardModel(
                name: machine.name, url: Routes.machine(machine).relative(from: url), summary: machine.summary,
                tags: machine.tags,
                partCount: Plural.count(machine.parts.count, "part"),
                commentCount: Plural.count(machine.commentCount, "comment"),
                photoCount: Plural.count(machine.photoCount, "photo"),
                backdrop: stacks[index].backdrop(prefix: prefix(index, at: url)))
        }
        return CatalogModel(machines: cards, hasMachines: !cards.isEmpty)
    }

    /// The way from the page at `url` to the page of machine `index`, which layer URLs start from.
    private func prefix(_ index: Int, at url: URLPath) -> String {
        let up = Routes.machine(content.machines[index]).relative(from: url)
        return up == "./" ? "" : up
    }

    private func machinePage(_ index: Int, page number: Int, at url: URLPath) -> MachinePageModel {
        let machine = content.machines[index]
        let base = Routes.machine(machine)
        let parts = machine.parts.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }.map { part in
            PartLinkModel(name: part.name, url: Routes.part(part, of: machine).relative(from: url),
                          counts: "\(Plural.count(part.community.comments.count, "comment")), \(Plural.count(part.community.photos.count, "photo"))")
        }
        let photos = machine.community.photos.map { photoModel($0, owner: base, at: url) }
        return MachinePageModel(
            name: machine.name, summary: machine.summary, designer: machine.designer, license: machine.license,
            updated: machine.updated?.day, tags: machine.tags, stack: stacks[index].stack(prefix: prefix(index, at: url)), parts: parts,
            discussion: discussion(machine.description, machine.community.comments, designer: machine.designer,
                                   base: base, page: number, at: url),
            photos: photos, hasPhotos: !photos.isEmpty)
    }

    private func partPage(_ partIndex: Int, of machineIndex: Int, page number: Int, at url: URLPath) -> PartPageModel {
        let machine = content.machines[machineIndex]
        let part = machine.parts[partIndex]
        let base = Routes.part(part, of: machine)
        let photos = part.community.photos.map { photoModel($0, owner: base, at: url) }
        let specs = part.specs.map { SpecModel(label: $0.label, value: $0.value) }
        return PartPageModel(
            name: part.name,
            machine: LinkModel(title: machine.name, url: Routes.machine(machine).relative(from: url)),
            backdrop: stacks[machineIndex].backdrop(prefix: prefix(machineIndex, at: url), excluding: partIndex),
            layer: stacks[machineIndex].layer(partIndex, url: Routes.layer(part, of: machine).relative(from: url)),
            specs: specs, hasSpecs: !specs.isEmpty, tags: part.tags,
            discussion: discussion(part.description, part.community.comments, designer: machine.designer,
                                   base: base, page: number, at: url),
            photos: photos, hasPhotos: !photos.isEmpty)
    }

    /// The designer's description first (on the first page only), then comments newest first.
    private func discussion(_ description: MarkdownSource?, _ comments: [Comment], designer: String?,
                            base: URLPath, page number: Int, at url: URLPath) -> DiscussionModel {
        let perPage = content.config.commentsPerPage
        let pageCount = SitePlan.pageCount(comments.count, perPage)
        let slice = comments.dropFirst((number - 1) * perPage).prefix(perPage)
        var entries = slice.map { comment in
            EntryModel(author: comment.author, date: comment.date.day, dateTime: comment.date.text,
                       html: markdown.render(comment.body.text, trust: .community), isDesigner: false)
        }
        if number == 1, let description {
            entries.insert(EntryModel(author: designer ?? "Designer", date: "", dateTime: "",
                                      html: markdown.render(description.text, trust: .designer(allowHTML: content.config.unsafeHTML)),
                                      isDesigner: true), at: 0)
        }
        var pagination: PaginationModel?
        if pageCount > 1 {
            let link = { (n: Int) in Routes.discussion(base, page: n).relative(from: url) }
            pagination = PaginationModel(
                pages: (1...pageCount).map { .init(number: $0, url: link($0), current: $0 == number) },
                previous: number > 1 ? link(number - 1) : nil,
                next: number < pageCount ? link(number + 1) : nil)
        }
        return DiscussionModel(entries: entries, hasEntries: !entries.isEmpty,
                               commentCount: Plural.count(comments.count, "comment"), pagination: pagination)
    }

    private func photoModel(_ photo: Photo, owner: URLPath, at url: URLPath) -> PhotoModel {
        let credit = photo.credit ?? photo.author.map { "Photo by \($0)" }
        return PhotoModel(url: Routes.photo(photo, under: owner).relative(from: url),
                          alt: photo.caption ?? "Photo \(photo.file.stem)", caption: photo.caption,
                          credit: credit, license: photo.license, date: photo.date?.day)
    }

    // MARK: Manual

    private func manualPage(_ index: Int?, at url: URLPath) -> ManualPageModel {
        let pages = content.manual
        let navigation = pages.map {
            ManualPageModel.NavItem(title: $0.title, url: Routes.manual($0).relative(from: url), current: Routes.manual($0) == url)
        }
        func link(_ i: Int) -> LinkModel? {
            pages.indices.contains(i) ? LinkModel(title: pages[i].title, url: Routes.manual(pages[i]).relative(from: url)) : nil
        }
        guard let index else {
            return ManualPageModel(title: "Manual", html: "", navigation: navigation, previous: nil, next: link(0))
        }
        let page = pages[index]
        return ManualPageModel(
            title: page.title,
            html: ManualLinks.rewrite(markdown.render(page.body.text, trust: .designer(allowHTML: content.config.unsafeHTML)),
                                      from: page, at: url),
            navigation: navigation, previous: link(index - 1), next: link(index + 1))
    }
}

enum Plural {
    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
