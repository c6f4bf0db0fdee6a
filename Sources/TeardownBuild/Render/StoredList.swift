import Foundation
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

    /// The stored index's bytes, and where each element's start (and the last one's end).
    final class Slices: Sendable {
        let bytes: [UInt8]
        let offsets: [UInt32]

        init(bytes: [UInt8], offsets: [UInt32]) {
            self.bytes = bytes
            self.offsets = offsets
        }
    }

    package let count: Int
    private let made: [Element]?
    private let deferred: Deferred?
    private let slices: Slices?
    /// The digest of the list's stored bytes, for a list read from the stored index: the pages
    /// that show it read it as a unit of this digest, which needs no decoding.
    let storedDigest: ContentDigest?

    package init(_ elements: [Element]) {
        made = elements
        count = elements.count
        deferred = nil
        storedDigest = nil
        slices = nil
    }

    /// `count` elements that `decode` gives when first asked for; it must give that many (the
    /// reader checked them when it read the index), stored as bytes of digest `digest`.
    /// `slices` has an offset for each element and one past the last.
    init(count: Int, digest: ContentDigest, slices: Slices, decode: @escaping @Sendable () -> [Element]) {
        made = nil
        self.count = count
        deferred = Deferred(decode)
        storedDigest = digest
        self.slices = slices
    }

    /// The digest of the stored bytes of the elements in `range`, for a list read from the
    /// stored index: what one page of the list shows, without decoding it.
    func storedDigest(of range: Range<Int>) -> ContentDigest? {
        guard let slices else { return nil }
        return ContentDigest(bytes: Data(slices.bytes[Int(slices.offsets[range.lowerBound])..<Int(slices.offsets[range.upperBound])]))
    }

    /// The elements, decoded now if they were not yet.
    package var elements: [Element] { made ?? deferred?.elements ?? [] }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }
    package subscript(position: Int) -> Element { elements[position] }

    package func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }
}
