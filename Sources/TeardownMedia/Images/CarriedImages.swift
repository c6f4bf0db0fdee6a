import TeardownBase
import TeardownContent

/// The images of the bundles the image index vouches for as they are (their signature and the
/// image settings are those their row was made under), kept as their rows: a path's outcome is
/// looked up in its bundle's row, indexed when first asked for. Making every bundle's jobs,
/// outcomes and lookup tables on every build was most of a one-comment sync's image step.
package final class CarriedImages: Sendable {
    struct Bundle: Sendable {
        let slug: String
        let row: StoredImageRow
        /// Whether machine.yaml names no cover photo: the composed image is then the cover.
        let composedIsCover: Bool
    }

    private let bundles: [Bundle]
    private let byFolder: [String: Int]
    private let bySlug: [String: Int]
    private let indexes = Locked<[Int: [String: ImageCache.Outcome]]>([:])

    /// Images lie at most this many folders below their bundle's (parts/<part>/photos/<file>).
    private static let depth = 4

    init(_ carried: [(folder: String, bundle: Bundle)]) {
        bundles = carried.map(\.bundle)
        byFolder = Dictionary(carried.enumerated().map { ($1.folder, $0) }, uniquingKeysWith: { first, _ in first })
        bySlug = Dictionary(carried.enumerated().map { ($1.bundle.slug, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var isEmpty: Bool { bundles.isEmpty }

    /// The outcome of the image at `path` (absolute), if a carried bundle holds it.
    func outcome(_ path: String) -> ImageCache.Outcome? {
        guard let bundle = bundle(holding: path) else { return nil }
        if let index = indexes.withLock({ $0[bundle] }) { return index[path] }
        // Made outside the lock: reading and decoding a row under it held up every other
        // core's lookups. Two that race make it twice, alike (the row decodes once).
        var index: [String: ImageCache.Outcome] = [:]
        for image in bundles[bundle].row.images?.images ?? [] { if let outcome = image.outcome { index[image.path] = outcome } }
        indexes.withLock { $0[bundle] = index }
        return index[path]
    }

    /// The machine's layers composed into one image.
    func composed(slug: String) -> ProcessedPhoto? {
        guard let bundle = bySlug[slug], case .photo(let photo)? = bundles[bundle].row.cover?.outcome else { return nil }
        return photo
    }

    /// The composed image, when it is the machine's cover.
    func composedCover(slug: String) -> ProcessedPhoto? {
        guard let bundle = bySlug[slug], bundles[bundle].composedIsCover else { return nil }
        return composed(slug: slug)
    }

    private func bundle(holding path: String) -> Int? {
        var end = path.endIndex
        for _ in 0...Self.depth {
            guard let slash = path[..<end].lastIndex(of: "/") else { return nil }
            if let bundle = byFolder[String(path[..<slash])] { return bundle }
            end = slash
        }
        return nil
    }
}
