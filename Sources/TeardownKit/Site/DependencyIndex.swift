/// A page's digest from what it read when it was rendered (`InputUnit`s, by key): the build
/// store keeps each page's reads and each unit's readers (`BuildStore`), and a page whose
/// every unit keeps its digest is carried over.
enum DependencyIndex {
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
