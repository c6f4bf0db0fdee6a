import TeardownBase

/// A list of the site index, either made by this build or read from the stored index and
/// decoded when first asked for. A sync that changes no listing plans the index's pages from
/// their counts alone and renders none of them: decoding every part's address under its
/// letter and tags, and every name's words, grew with the catalog for nothing.
package struct StoredList<Element: Sendable>: RandomAccessCollection, Sendable {
    private final class Deferred: Sendable {
        let decode: @Sendable () -> [Element]
        let memo = Locked<[Element]?>(nil)

        init(_ decode: @escaping @Sendable () -> [Element]) { self.decode = decode }

        var elements: [Element] {
            memo.withLock { memo in
                if let memo { return memo }
                let elements = decode()
                memo = elements
                return elements
            }
        }
    }

    package let count: Int
    private let made: [Element]?
    private let deferred: Deferred?
    /// The digest of the list's stored bytes, for a list read from the stored index: the pages
    /// that show it read it as a unit of this digest, which needs no decoding.
    let storedDigest: ContentDigest?

    package init(_ elements: [Element]) {
        made = elements
        count = elements.count
        deferred = nil
        storedDigest = nil
    }

    /// `count` elements that `decode` gives when first asked for; it must give that many (the
    /// reader checked them when it read the index), stored as bytes of digest `digest`.
    init(count: Int, digest: ContentDigest, decode: @escaping @Sendable () -> [Element]) {
        made = nil
        self.count = count
        deferred = Deferred(decode)
        storedDigest = digest
    }

    /// The elements, decoded now if they were not yet.
    package var elements: [Element] { made ?? deferred?.elements ?? [] }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }
    package subscript(position: Int) -> Element { elements[position] }

    package func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }
}
