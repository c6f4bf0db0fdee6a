import Foundation

/// What each page of a published tree read when it was rendered, stored as a reverse index:
/// for every unit (`InputUnit`, by key) its digest then and the pages that read it. A build
/// compares the digests with the units' values now; the pages of the units that changed are
/// the ones to render again, and no page depends on anything it did not read.
///
/// It is kept beside the tree's manifest, under the tree's identity. Missing, corrupt or from
/// another version of Teardown, it is ignored: every page is rendered.
struct DependencyIndex: Codable, Sendable {
    private static let format = "teardown-reads 1 " + TeardownVersion.build

    struct Unit: Codable, Sendable {
        let key: String
        let digest: ContentDigest
        /// Positions in `pages`.
        let pages: [UInt32]
    }

    private let format: String
    /// Output paths of the pages.
    let pages: [String]
    let units: [Unit]

    static func parse(_ data: Data) -> DependencyIndex? {
        guard let index = try? BinaryDecoder().decode(DependencyIndex.self, from: data), index.format == format else {
            return nil
        }
        return index
    }

    func serialized() -> Data { (try? BinaryEncoder().encode(self)) ?? Data() }

    /// The pages that read a unit whose digest is not `current`'s, or that is gone.
    func stale(_ current: [String: ContentDigest]) -> Set<String> {
        var stale = Set<String>()
        for unit in units where current[unit.key] != unit.digest {
            for page in unit.pages { stale.insert(pages[Int(page)]) }
        }
        return stale
    }

    /// The index of a tree holding `planned` pages: those in `rendered` with what they read
    /// now, the others with what they read when `previous` was made (their units are unchanged).
    init(planned: [String], rendered: [String: [String]], previous: DependencyIndex?, current: [String: ContentDigest]) {
        format = Self.format
        pages = planned
        let position = Dictionary(planned.enumerated().map { ($1, UInt32($0)) }, uniquingKeysWith: { first, _ in first })
        var readers: [String: [UInt32]] = [:]
        if let previous {
            for unit in previous.units where current[unit.key] == unit.digest {
                for page in unit.pages {
                    let path = previous.pages[Int(page)]
                    if rendered[path] == nil, let now = position[path] { readers[unit.key, default: []].append(now) }
                }
            }
        }
        for (path, keys) in rendered {
            guard let now = position[path] else { continue }
            for key in keys { readers[key, default: []].append(now) }
        }
        units = readers.keys.sorted().compactMap { key in
            current[key].map { Unit(key: key, digest: $0, pages: readers[key]!.sorted()) }
        }
    }

    /// A page's digest: its path and every unit it read, with the unit's digest. Pages with
    /// one digest are the same bytes.
    static func digest(of path: String, reading keys: [String], _ current: [String: ContentDigest]) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(path)
        for key in keys.sorted() {
            fingerprint.add(key)
            fingerprint.add(current[key] ?? ContentDigest(high: 0, low: 0))
        }
        return fingerprint.digest
    }
}
