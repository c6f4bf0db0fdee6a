import SystemPackage
import TeardownBase

/// A help manual: the site's (content/manual/) or a machine's (machines/<m>/manual/).
public struct Manual: Sendable, Hashable {
    /// One line of the navigation tree, in reading order.
    public struct Entry: Sendable, Hashable, Codable {
        public enum Kind: Sendable, Hashable {
            /// A link to `pages[index]`.
            case page(Int)
            /// A chapter listed without a file yet (mdBook's `- [Title]()`), or a folder without an index page.
            case draft
            /// A part heading (mdBook's `# Title` between chapters).
            case part
            case separator
        }
        public let kind: Kind
        public let title: String
        /// Nesting level, 0 at the top.
        public let depth: Int
        /// The entry this one is nested under, for breadcrumbs.
        public let parent: Int?
    }

    public let folder: SourceFile
    /// Every page, listed or not.
    public let pages: [ManualPage]
    public let entries: [Entry]
    /// Page indices in reading order (previous/next, the print page); each page once. Pages that
    /// SUMMARY.md does not list come last and are left out of the navigation.
    public let order: [Int]
    /// How many of `order` the navigation lists.
    public let listedCount: Int
    /// Files other than Markdown (images, downloads), relative to the folder, published beside the pages.
    public let assets: [String]

    public init(folder: SourceFile, pages: [ManualPage], entries: [Entry], order: [Int], listedCount: Int, assets: [String]) {
        self.folder = folder
        self.pages = pages
        self.entries = entries
        self.order = order
        self.listedCount = listedCount
        self.assets = assets
        lookup = ManualPageLookup(pages)
    }

    public static func empty(_ folder: SourceFile) -> Manual {
        Manual(folder: folder, pages: [], entries: [], order: [], listedCount: 0, assets: [])
    }

    public var isEmpty: Bool { pages.isEmpty }

    /// Pages by their file and by their address.
    package let lookup: ManualPageLookup

    /// The page published at the manual's own address, if any.
    public var indexPage: Int? { lookup.page(at: []) }

    /// Manuals longer than this link a shared navigation file instead of repeating the tree on
    /// every page, so a manual's navigation grows linearly with its pages, not quadratically.
    package static let inlineNavigationLimit = 60

    /// Whether every page shows the whole navigation tree, or loads it from one shared file.
    public var inlineNavigation: Bool { entries.count <= Self.inlineNavigationLimit }

    /// A relative path with `.` and `..` worked out ("guide/../a.md" is "a.md"); leading `..`
    /// that leave the folder are kept, as swift-system's lexical normalisation keeps them.
    package static func normalized(_ path: String) -> String {
        FilePath(path).lexicallyNormalized().string
    }

    /// Page names at the top of a manual that its generated pages use.
    package static let reservedNames: Set<String> = ["print", "contents"]
}

/// Finds a manual's pages by file ("guide/setup.md") and by address (["guide", "setup"]);
/// the first page wins where two claim one.
package struct ManualPageLookup: Sendable, Hashable {
    private let bySource: [String: Int]
    private let byPath: [[String]: Int]

    package init(_ pages: [ManualPage]) {
        bySource = Dictionary(pages.indices.map { (pages[$0].slug + ".md", $0) }, uniquingKeysWith: { first, _ in first })
        byPath = Dictionary(pages.indices.map { (pages[$0].path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package func page(source: String) -> Int? { bySource[source] }
    package func page(at path: [String]) -> Int? { byPath[path] }
}
