import TeardownBase

/// Whether an entry lies at or below a path an update takes anew. Most entries are neither:
/// they are told apart by their paths' lengths before any path is hashed or compared, since a
/// hash of every entry's path was most of applying one filed comment to a large snapshot.
/// (Flags indexed by length, and filters by root in an array: even an Int's hash per entry showed.)
struct RetakenFilter {
    private struct Root {
        let list: [String]
        let paths: Set<Substring>
        let prefixes: [String]
        let lengths: [Bool]
        let shortestBelow: Int
        var many: Bool { list.count > 16 }
    }

    private let roots: [Root?]

    init(_ retaken: [Int: [String]], roots count: Int) {
        roots = (0..<count).map { root in
            guard let list = retaken[root] else { return nil }
            let prefixes = list.map { $0.isEmpty ? "" : $0 + "/" }
            return Root(list: list, paths: Set(list.map { Substring($0) }), prefixes: prefixes,
                        lengths: Self.flags(list.map(\.utf8.count)), shortestBelow: prefixes.map(\.utf8.count).min() ?? .max)
        }
    }

    static func flags(_ lengths: some Sequence<Int>) -> [Bool] {
        var flags = [Bool](repeating: false, count: (lengths.max() ?? 0) + 1)
        for length in lengths { flags[length] = true }
        return flags
    }

    func contains(_ entry: InputSnapshot.Entry, length: Int) -> Bool {
        guard let root = roots[entry.root],
              root.many || length >= root.shortestBelow || (length < root.lengths.count && root.lengths[length])
        else { return false }
        // A few paths (a sync's, an edit's) are compared with each entry, as bytes: String's
        // `hasPrefix` checks character boundaries. Many (a check after a branch was checked out)
        // are looked up by the entry's path and the folders above it, so that no entry is
        // compared with every path.
        if !root.many {
            return root.list.contains(entry.path) || root.prefixes.contains { ByteSearch.hasPrefix(entry.path, $0) }
        }
        if root.paths.contains("") || root.paths.contains(Substring(entry.path)) { return true }
        var slash = entry.path.firstIndex(of: "/")
        while let found = slash {
            if root.paths.contains(entry.path[..<found]) { return true }
            slash = entry.path[entry.path.index(after: found)...].firstIndex(of: "/")
        }
        return false
    }
}
