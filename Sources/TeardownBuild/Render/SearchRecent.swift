/// The search index's recent shard as the search page names it: a bundle merged with the shards
/// whose results stand in for some of theirs (the build's `RecentShard`).
package struct SearchRecent: Sendable {
    /// The shards' results it stands in for, each with its filters as JSON (nil: none), which
    /// the page's script leaves out of the results and takes off the filters' counts.
    package let superseded: [(result: String, filters: String?)]

    package init(superseded: [(result: String, filters: String?)]) { self.superseded = superseded }

    /// `{"<result>": {"type": [...], "machine": [...]}, ...}` for the search page. A result is
    /// named by Pagefind's language code and a hash: a name of any other letters is left out
    /// rather than escaped.
    package var json: String {
        let named = superseded.filter { $0.result.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } }
        return "{" + named.map { "\"" + $0.result + "\":" + ($0.filters ?? "null") }.joined(separator: ",") + "}"
    }
}
