/// A stage of the build pipeline, in the order they run: timings and failures name it.
public enum BuildStep: String, Sendable, CaseIterable, Codable {
    /// Compares the inputs with the last build's snapshot.
    case inputs = "check inputs"
    /// Reads content (through the content cache) and the theme, and validates them.
    case load
    /// Makes or finds photo variants, optimized layers and covers.
    case images
    /// Decides every output: manuals, downloads, indexes and the page list.
    case plan
    /// Digests what each output is made from and compares with the published manifest.
    case fingerprint
    /// Renders and writes the outputs that changed into the spare tree.
    case render
    /// Brings the search page's first answer up to date with the pages that changed.
    case firstAnswer = "first answer"
    /// Runs Pagefind over the spare tree.
    case index = "search index"
    /// Swaps the spare tree in and records what this build read.
    case publish
    /// Swaps in the search shards indexed again after the pages were published.
    case publishSearch = "publish search"
}
