import Foundation
import TeardownContent

/// The pages of a manual: its pages, contents, print page and shared navigation data.
extension PageRenderer {
    package func manual(_ address: ManualAddress, at url: URLPath) -> String {
        let book = manual(of: address.machine)
        let machine = address.machine.map { content.machines[$0] }
        let manualTitle = machine.map { "\($0.name) manual" } ?? "Manual"
        var filters = [SearchFilterModel(name: "type", value: "manual")]
        if let machine { filters.append(SearchFilterModel(name: "machine", value: machine.name)) }
        switch address.output {
        case .page(let index):
            let page = manualPage(index, of: book, title: manualTitle, machine: machine, at: url)
            // A machine manual's front page is usually titled after it ("Desk fan user manual"):
            // "Desk fan user manual — Desk fan manual" would say it twice.
            let title = machine.map { page.title.localizedCaseInsensitiveContains($0.name) ? page.title : "\(page.title) — \(manualTitle)" }
                ?? page.title
            return theme.render("manual", model(url, title: title, description: "", scripts: ["manual.js"], filters: filters, page))
        case .contents:
            let page = contentsPage(book, title: manualTitle, machine: machine, at: url)
            return theme.render("manual", model(url, title: manualTitle, description: "", scripts: ["manual.js"], page))
        case .print:
            let sections = book.manual.order.map { index in
                ManualPrintModel.Section(id: book.printID(of: index), html: book.html(of: index, at: url, forPrint: true))
            }
            return theme.render("manual-print", model(url, title: "\(manualTitle), all pages", description: "",
                                                      ManualPrintModel(title: "\(manualTitle), all pages",
                                                                       manual: LinkModel(title: manualTitle, url: book.base.relative(from: url)),
                                                                       sections: sections)))
        case .navigation:
            return navigationData(book, at: url)
        }
    }

    private func manualPage(_ index: Int, of book: ManualView, title manualTitle: String, machine: MachineView?,
                            at url: URLPath) -> ManualPageModel {
        let manual = book.manual
        let page = manual.pages[index]
        let position = book.positionOfPage[index]
        func link(_ position: Int) -> LinkModel? {
            guard position >= 0, position < manual.listedCount else { return nil }
            let target = manual.order[position]
            return LinkModel(title: manual.pages[target].title, url: book.url(of: target).relative(from: url))
        }
        let listed = position.map { $0 < manual.listedCount } ?? false
        var crumbs: [LinkModel] = []
        var ancestor = book.entryOfPage[index].flatMap { manual.entries[$0].parent }
        while let entry = ancestor {
            if case .page(let target) = manual.entries[entry].kind {
                crumbs.insert(LinkModel(title: manual.entries[entry].title, url: book.url(of: target).relative(from: url)), at: 0)
            }
            ancestor = manual.entries[entry].parent
        }
        if !page.path.isEmpty {
            crumbs.insert(LinkModel(title: manualTitle, url: book.base.relative(from: url)), at: 0)
        }
        // A machine's manual leads back to its machine from every page.
        if let machine {
            crumbs.insert(LinkModel(title: machine.name, url: Routes.machine(machine).relative(from: url)), at: 0)
        }
        let document = book.document(index)
        let toc = zip(document.headings, book.anchors[index]).filter { (2...3).contains($0.0.level) }.map {
            ManualPageModel.TocItem(title: $0.0.text, url: "#" + $0.1, level: $0.0.level)
        }
        let address = baseURL + url.value.dropFirst()
        let navigation = manual.inlineNavigation ? navigationItems(book, current: index, at: url) : []
        let html = book.html(of: index, at: url)
        let (heading, body) = Self.heading(of: html)
        return ManualPageModel(
            title: page.title, manualTitle: manualTitle,
            html: html, heading: heading, body: body, toc: toc, hasToc: toc.count > 1,
            navigation: navigation, hasNavigation: !navigation.isEmpty,
            navigationData: manual.inlineNavigation ? nil : Routes.manualNavigation(in: book.base).relative(from: url),
            contents: Routes.manualContents(manual, in: book.base).relative(from: url),
            breadcrumbs: crumbs, hasBreadcrumbs: !crumbs.isEmpty,
            previous: listed ? position.flatMap { link($0 - 1) } : nil,
            next: listed ? position.flatMap { link($0 + 1) } : nil,
            edit: content.config.editURL.map { $0.replacingOccurrences(of: "{path}", with: page.body.file.displayPath) },
            bugReport: content.config.bugReportURL.map { Self.bugReport($0, title: page.title, address: address) },
            print: Routes.manualPrint(in: book.base).relative(from: url),
            indexed: true, isContents: false)
    }

    /// A page's HTML as its leading `<h1>` and the rest; no heading when it does not open with one.
    static func heading(of html: String) -> (heading: String, body: String) {
        guard html.hasPrefix("<h1"), let end = html.range(of: "</h1>") else { return ("", html) }
        var body = html[end.upperBound...]
        if body.hasPrefix("\n") { body = body.dropFirst() }
        return (String(html[..<end.upperBound]), String(body))
    }

    private func contentsPage(_ book: ManualView, title: String, machine: MachineView?, at url: URLPath) -> ManualPageModel {
        let crumbs = machine.map { [LinkModel(title: $0.name, url: Routes.machine($0).relative(from: url))] } ?? []
        let navigation = navigationItems(book, current: nil, at: url)
        let empty = book.manual.isEmpty
        let html = empty ? "<p>This manual has no pages yet.</p>" : ""
        return ManualPageModel(
            title: title, manualTitle: title,
            html: html, heading: "", body: html, toc: [], hasToc: false,
            navigation: navigation, hasNavigation: !navigation.isEmpty, navigationData: nil,
            contents: url.relative(from: url), breadcrumbs: crumbs, hasBreadcrumbs: !crumbs.isEmpty, previous: nil,
            next: book.manual.order.first.map { LinkModel(title: book.manual.pages[$0].title, url: book.url(of: $0).relative(from: url)) },
            edit: nil, bugReport: nil, print: empty ? nil : Routes.manualPrint(in: book.base).relative(from: url),
            indexed: false, isContents: true)
    }

    /// The tree as flat items that open and close nested lists.
    private func navigationItems(_ book: ManualView, current: Int?, at url: URLPath) -> [ManualPageModel.NavItem] {
        let entries = book.manual.entries
        return entries.enumerated().map { offset, entry in
            let nextDepth = offset + 1 < entries.count ? entries[offset + 1].depth : 0
            var target: String?
            var kind: String
            var isCurrent = false
            switch entry.kind {
            case .page(let page):
                target = book.url(of: page).relative(from: url)
                kind = "page"
                isCurrent = page == current && book.entryOfPage[page] == offset
            case .draft: kind = "draft"
            case .part: kind = "part"
            case .separator: kind = "separator"
            }
            return ManualPageModel.NavItem(title: entry.title, url: target, current: isCurrent, kind: kind,
                                           opens: nextDepth > entry.depth,
                                           closes: Array(repeating: 0, count: max(0, entry.depth - nextDepth)))
        }
    }

    /// nav.json: the tree of a long manual, once, with URLs relative to the file itself.
    private func navigationData(_ book: ManualView, at url: URLPath) -> String {
        struct Entry: Encodable {
            let title: String
            let url: String?
            let depth: Int
            let kind: String
        }
        struct Navigation: Encodable {
            let version = 1
            let entries: [Entry]
        }
        let entries = navigationItems(book, current: nil, at: url).enumerated().map { offset, item in
            Entry(title: item.title, url: item.url, depth: book.manual.entries[offset].depth, kind: item.kind)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and arrays of them: encoding cannot fail.
        return (try? encoder.encode(Navigation(entries: entries))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// site.yaml's bug_report_url for one page: `{title}` and `{url}` are replaced; without them
    /// a mailto: address gets a subject and body, a web address `title` and `body` parameters
    /// (what GitHub's and Gitea's new-issue forms read).
    package static func bugReport(_ template: String, title: String, address: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        if template.contains("{title}") || template.contains("{url}") {
            return template.replacingOccurrences(of: "{title}", with: encoded(title))
                .replacingOccurrences(of: "{url}", with: encoded(address))
        }
        let separator = template.contains("?") ? "&" : "?"
        let body = encoded("Page: \(address)\n\nWhat happened:\n")
        if template.lowercased().hasPrefix("mailto:") {
            return template + separator + "subject=" + encoded("Bug: \(title)") + "&body=" + body
        }
        return template + separator + "title=" + encoded("Bug: \(title)") + "&body=" + body
    }
}
