import TeardownBase

/// Whether an entry lies at or below a path an update takes anew. Most entries are neither:
/// they are told apart by their paths' lengths before any path is hashed or compared, since a
/// hash of every entry's path was most of applying one filed comment to a large snapshot.
/// (Flags indexed by length, and filters by root in an array: even an Int's hash per entry showed.)
struct RetakenFilter {
    /// What tells most entries apart at once, by root: the lengths of the paths taken anew, the
    /// shortest path they have below them, and whether they are many. Kept apart from the paths
    /// themselves so that an entry the lengths rule out copies nothing else.
    private let quick: [(lengths: [Bool], shortestBelow: Int, many: Bool)?]
    private let paths: [(list: [String], set: Set<Substring>, prefixes: [String])?]
    /// The few paths and their prefixes as bytes, by root, for lines of a stored form.
    private let bytes: [(list: [[UInt8]], prefixes: [[UInt8]])?]

    init(_ retaken: [Int: [String]], roots count: Int) {
        paths = (0..<count).map { root in
            retaken[root].map { list in (list, Set(list.map { Substring($0) }), list.map { $0.isEmpty ? "" : $0 + "/" }) }
        }
        bytes = paths.map { root in root.map { ($0.list.map { Array($0.utf8) }, $0.prefixes.map { Array($0.utf8) }) } }
        quick = paths.map { root in
            root.map { ($0.list, $0.prefixes) }.map { list, prefixes in
                (Self.flags(list.map(\.utf8.count)), prefixes.map(\.utf8.count).min() ?? .max, list.count > 16)
            }
        }
    }

    static func flags(_ lengths: some Sequence<Int>) -> [Bool] {
        var flags = [Bool](repeating: false, count: (lengths.max() ?? 0) + 1)
        for length in lengths { flags[length] = true }
        return flags
    }

    /// `contains` for a line of a stored form: its root and its path's bytes. A path is made
    /// only when many paths were taken anew and the lengths do not rule the line out.
    func contains(root: Int, relative: ArraySlice<UInt8>) -> Bool {
        let length = relative.count
        guard let filter = quick[root],
              filter.many || length >= filter.shortestBelow || (length < filter.lengths.count && filter.lengths[length]),
              let taken = bytes[root]
        else { return false }
        guard filter.many else {
            return taken.list.contains { relative.elementsEqual($0) } || taken.prefixes.contains { relative.starts(with: $0) }
        }
        let entry = InputSnapshot.Entry(root: root, path: String(decoding: relative, as: UTF8.self), signature: 0, content: nil)
        return contains(entry, length: length)
    }

    func contains(_ entry: InputSnapshot.Entry, length: Int) -> Bool {
        guard let filter = quick[entry.root],
              filter.many || length >= filter.shortestBelow || (length < filter.lengths.count && filter.lengths[length]),
              let root = paths[entry.root]
        else { return false }
        // A few paths (a sync's, an edit's) are compared with each entry, as bytes: String's
        // `hasPrefix` checks character boundaries. Many (a check after a branch was checked out)
        // are looked up by the entry's path and the folders above it, so that no entry is
        // compared with every path.
        if !filter.many {
            return root.list.contains(entry.path) || root.prefixes.contains { ByteSearch.hasPrefix(entry.path, $0) }
        }
        if root.set.contains("") || root.set.contains(Substring(entry.path)) { return true }
        var slash = entry.path.firstIndex(of: "/")
        while let found = slash {
            if root.set.contains(entry.path[..<found]) { return true }
            slash = entry.path[entry.path.index(after: found)...].firstIndex(of: "/")
        }
        return false
    }
}
