/// Every output of a build, decided before anything is rendered.
public struct SitePlan: Sendable {
    /// A page to render, and from which content.
    public enum Page: Sendable, Hashable {
        case catalog
        case machine(Int, discussionPage: Int)
        case part(Int, Int, discussionPage: Int)
        /// A manual page; nil is the generated contents page when the manual has no index.md.
        case manual(Int?)
        case notFound
    }

    /// A source file published unchanged.
    public struct Copy: Sendable, Hashable {
        public let url: URLPath
        public let source: SourceFile
    }

    public let pages: [(url: URLPath, page: Page)]
    public let copies: [Copy]

    /// Plans the pages and files of `content` themed by `theme`.
    public init(content: SiteContent, theme: Theme) {
        var pages: [(URLPath, Page)] = [(Routes.catalog, .catalog), (Routes.notFound, .notFound)]
        var copies: [Copy] = theme.assets.sorted { $0.key < $1.key }.map { Copy(url: Routes.asset($0.key), source: $0.value) }
        let perPage = content.config.commentsPerPage
        for (m, machine) in content.machines.enumerated() {
            let machineURL = Routes.machine(machine)
            for number in 1...Self.pageCount(machine.community.comments.count, perPage) {
                pages.append((Routes.discussion(machineURL, page: number), .machine(m, discussionPage: number)))
            }
            copies += machine.community.photos.map { Copy(url: Routes.photo($0, under: machineURL), source: $0.file) }
            for (p, part) in machine.parts.enumerated() {
                let partURL = Routes.part(part, of: machine)
                for number in 1...Self.pageCount(part.community.comments.count, perPage) {
                    pages.append((Routes.discussion(partURL, page: number), .part(m, p, discussionPage: number)))
                }
                copies.append(Copy(url: Routes.layer(part, of: machine), source: part.layer.image))
                copies += part.community.photos.map { Copy(url: Routes.photo($0, under: partURL), source: $0.file) }
            }
        }
        for (index, page) in content.manual.enumerated() {
            pages.append((Routes.manual(page), .manual(index)))
        }
        if !content.manual.contains(where: { Routes.manual($0) == Routes.manual }) {
            pages.append((Routes.manual, .manual(nil)))
        }
        self.pages = pages
        self.copies = copies
    }

    static func pageCount(_ items: Int, _ perPage: Int) -> Int {
        max(1, (items + perPage - 1) / perPage)
    }
}
