import TeardownBase
/// Rendered Markdown with what a manual needs to know about it.
public struct MarkdownDocument: Sendable {
    public struct Heading: Sendable, Hashable {
        public let level: Int
        /// The heading's text, without markup.
        public let text: String
    }
    public struct Link: Sendable, Hashable {
        /// The target as written (a link's URL or an image's source).
        public let destination: String
        /// Where the link starts, counted from the start of the Markdown.
        public let line: Int
        public let column: Int
        /// An image's source, not a link's.
        public var isImage = false
    }
    /// HTML as cmark-gfm writes it: headings are plain `<h2>` tags, in the order of `headings`.
    public let html: String
    public let headings: [Heading]
    public let links: [Link]
    /// Raw HTML left out (`HTMLAllowlist`): a tag or attribute, and its line in the Markdown.
    /// What was left out of the raw HTML, a tag or an attribute, with its line in the text.
    public struct DroppedHTML: Sendable, Hashable {
        public let what: String
        public let line: Int
        /// A visitor's image by a path, `what` its address.
        public var isImage = false
        /// Kept HTML in a place that would make the page invalid (`what` says where).
        public var isMisplaced = false

        /// The warning it is.
        public var problem: Problem {
            isImage ? .communityImageLeftOut(what) : isMisplaced ? .rawHTMLMisplaced(what) : .rawHTMLLeftOut(what)
        }
    }
    public let droppedHTML: [DroppedHTML]
}
