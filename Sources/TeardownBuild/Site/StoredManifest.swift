import Foundation
import GRDB
import TeardownBase

/// One output tree's manifest (output path -> digest) as the build store holds it, read by
/// path: a one-comment build looks up the few hundred paths it plans and changes, not the
/// 22,000 rows of a 10,000-part catalog (reading them all was most of its fingerprint step).
/// Rows read are kept, so each path is read once. The whole manifest is read only where a
/// build must see every path: an output gone, a spare tree the store lost track of.
package final class StoredManifest: @unchecked Sendable {
    private let store: BuildStore
    package let tree: String
    /// How many outputs the tree holds, as recorded with it.
    package let count: Int
    /// Each path read, with its digest (nil: the tree has no such output).
    private let read = Locked<[String: ContentDigest?]>([:])
    private let whole = Locked<[String: ContentDigest]?>(nil)
    /// A read that failed where no error could be thrown; `check` throws it before a publish.
    private let failure = Locked<(any Error)?>(nil)

    init(store: BuildStore, tree: String, count: Int) {
        self.store = store
        self.tree = tree
        self.count = count
    }

    /// The digest of the output at `path`, if the tree holds one. A path not read before is
    /// looked up alone; the build reads the paths it plans in one go first (`fetch`).
    package subscript(path: String) -> ContentDigest? {
        if let known = read.withLock({ $0[path] }) { return known }
        do {
            try fetch([path])
        } catch {
            failure.withLock { $0 = $0 ?? error }
        }
        return read.withLock { $0[path] ?? nil }
    }

    /// Reads the rows of `paths` not read yet, in one transaction.
    package func fetch(_ paths: some Sequence<String>) throws {
        let wanted = read.withLock { known in paths.filter { known[$0] == nil } }
        guard !wanted.isEmpty else { return }
        let found = try store.outputs(of: tree, at: wanted)
        read.withLock { known in
            for path in wanted { known[path] = .some(found[path]) }
        }
    }

    /// Every output of the tree.
    package func all() throws -> [String: ContentDigest] {
        if let whole = whole.withLock({ $0 }) { return whole }
        let found = try store.outputs(of: tree)
        whole.withLock { $0 = found }
        read.withLock { known in
            for (path, digest) in found { known[path] = .some(digest) }
        }
        return found
    }

    /// The outputs whose paths start with `prefix` (the search index's files).
    package func outputs(under prefix: String) throws -> [String: ContentDigest] {
        let found = try store.outputs(of: tree, under: prefix)
        read.withLock { known in
            for (path, digest) in found { known[path] = .some(digest) }
        }
        return found
    }

    /// How many outputs' paths start with `prefix` (ending in "/"), without reading them.
    package func count(under prefix: String) throws -> Int {
        try store.count(of: tree, under: prefix)
    }

    /// Throws what a lookup could not: a build does not publish what it read wrongly.
    package func check() throws {
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
