import TeardownBase

/// The bundles a check found as the last build stored them, whose lines it left in the build
/// store: a snapshot names them with the signature their rows were stored under, and reads a
/// row back only when something asks for its lines (a comment filed into that bundle, its
/// part entries for the load). Otherwise a one-comment sync held every bundle's lines through
/// the build for the few kilobytes of the one it touched.
package struct SnapshotLeftRows: Sendable {
    /// Each bundle left, with the signature of its entries.
    package let signatures: [String: ContentDigest]
    /// The stored lines of a bundle's row, or nil when the row is gone.
    private let fetch: @Sendable (String) -> [UInt8]?

    package init(signatures: [String: ContentDigest], fetch: @escaping @Sendable (String) -> [UInt8]?) {
        self.signatures = signatures
        self.fetch = fetch
    }

    /// The lines of `bundle`'s row, only if they are the ones the check vouched for: every line
    /// parses and their entries sign to the signature the row was left with. Nil otherwise, and
    /// the caller walks (another process may have written the store since).
    func lines(of bundle: String, rootCount: Int) -> [UInt8]? {
        guard let signature = signatures[bundle], let lines = fetch(bundle) else { return nil }
        var entries: [InputSnapshot.Entry] = []
        guard SnapshotLine.each(in: lines, 0..<lines.count, rootCount: rootCount, { entries.append($0.entry()) }),
              entries.allSatisfy({ $0.root == 0 && $0.content == nil && InputSnapshot.bundle(of: $0.path) == Substring(bundle) }),
              InputSnapshot.signature(of: entries).0 == signature
        else { return nil }
        return lines
    }

    /// These rows without `bundles`.
    func removing(_ bundles: some Sequence<String>) -> SnapshotLeftRows {
        var signatures = signatures
        for bundle in bundles { signatures[bundle] = nil }
        return SnapshotLeftRows(signatures: signatures, fetch: fetch)
    }
}
