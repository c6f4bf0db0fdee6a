import TeardownContent

// Explicit, already-resolved data for templates: URLs are relative to the page being
// rendered, Markdown is HTML, numbers are formatted. Templates never see domain types.
// Each model is declared once: the build makes its template fields (Plugins/TemplateFields).

package struct ManualPageModel: Sendable {
    /// One line of the navigation tree; the template nests them with `opens` and `closes`.
    package struct NavItem: Sendable {
        package let title: String
        /// nil for drafts, part headings and separators.
        package let url: String?
        package let current: Bool
        /// "page", "draft", "part" or "separator".
        package let kind: String
        /// The next item is this one's first child.
        package let opens: Bool
        /// How many levels end after this item.
        package let closes: [Int]
    }
    package struct TocItem: Sendable {
        package let title: String
        package let url: String
        package let level: Int
    }
    /// The page's heading.
    package let title: String
    /// "Manual", or "<machine> manual".
    package let manualTitle: String
    package let html: String
    /// `html` in two: the page's own first heading, when it opens with one, and the rest. A
    /// theme puts "On this page" between them, so that on a phone the title comes first.
    package let heading: String
    package let body: String
    package let toc: [TocItem]
    package let hasToc: Bool
    /// The whole tree when the manual is short enough to repeat it on every page.
    package let navigation: [NavItem]
    package let hasNavigation: Bool
    /// The shared tree file of a long manual, which the manual's script loads.
    package let navigationData: String?
    package let contents: String
    /// Ancestors of the page, first the manual itself.
    package let breadcrumbs: [LinkModel]
    package let hasBreadcrumbs: Bool
    package let previous: LinkModel?
    package let next: LinkModel?
    package let edit: String?
    package let bugReport: String?
    package let print: String?
    /// Whether Pagefind indexes this page (manual pages, not the contents page).
    package let indexed: Bool
    /// The contents page shows the tree as its body.
    package let isContents: Bool
}

package struct ManualPrintModel: Sendable {
    package struct Section: Sendable {
        package let id: String
        package let html: String
    }
    package let title: String
    package let manual: LinkModel
    package let sections: [Section]
}

package struct SearchPageModel: Sendable {
    /// Pagefind's script, relative to the search page; nil when the site was built without an index.
    package let index: String?
    /// The worker that script starts, fetched by the page with Pagefind's first files so the
    /// search does not wait a round trip for it.
    package let worker: String?
    /// The folders of the index's other shards, which the script merges into the first: one
    /// string, separated by spaces; nil when the index is one bundle.
    package let merge: String?
    /// Why search is unavailable, when it is.
    package let unavailable: String?
    /// How many words' files the first-answer index has (`SearchWords.fileCount`), and their
    /// folder relative to the page: the page's script finds a word's file by its hash.
    package var firstAnswerFiles: Int = 0
    package var firstAnswerFolder: String = ""
    /// Pagefind's `metaCacheTag`, and the first files it asks for, relative to the page (`SearchPreload`).
    package var cacheTag: String? = nil
    package var preloads: [String] = []
    /// The first shard's index chunks as JSON, `[[first word, last word, hash]]`, and their
    /// folder relative to the page, for the head's script to ask for a query's chunk early.
    package var chunks: String? = nil
    package var chunkFolder: String? = nil
    /// The results the recent shard stands in for, with their filters, as JSON (`SearchRecent`).
    package var superseded: String? = nil
}

package struct NotFoundModel: Sendable {
    package let home: String
}
