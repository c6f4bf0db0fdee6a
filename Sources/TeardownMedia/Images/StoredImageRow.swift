import Foundation
import TeardownBase
import TeardownContent

/// A bundle's row of the image index as the build found it: its summary, and its bytes read
/// by name and decoded only when first asked for. A carried bundle is decided on the summary,
/// and only the rows of the pages a build renders are read: reading and checking every row's
/// bytes grew with the catalog and was most of a one-comment sync's
/// image step.
///
/// Bytes that are not those the row was written with, or that cannot be read, make the row a
/// miss (its images nil) and are noted in `damaged`: a build that carried the bundle on its
/// summary drops the row and starts over (`ImageCache.damagedCarriedRows`).
package final class StoredImageRow: Sendable {
    package let name: String
    package let settings: String
    package let summary: BundleImages.Summary
    private let digest: ContentDigest
    private let coverDigest: ContentDigest?
    private let index: ImageIndex?
    private let damaged: Locked<Set<String>>
    private let counters: BuildCounters
    /// Nil until read; then the row's checked bytes, or nil when they are damaged.
    private let read = Locked<(cover: Data?, images: Data)??>(nil)
    /// Nil until decoded; then the row's images, or nil when they do not decode.
    private let decoded = Locked<BundleImages??>(nil)
    private let decodedCover = Locked<BundleImages.Image??>(nil)

    init(name: String, _ stored: ImageIndex.Summary, index: ImageIndex?, damaged: Locked<Set<String>>, counters: BuildCounters) {
        self.name = name
        settings = stored.settings
        summary = stored.summary
        digest = stored.digest
        coverDigest = stored.coverDigest
        self.index = index
        self.damaged = damaged
        self.counters = counters
    }

    /// The row's bytes, read once and checked against its digest.
    private var bytes: (cover: Data?, images: Data)? {
        read.withLock { memo in
            if let memo { return memo }
            counters.count(.imageRowsFetched)
            let bytes = index?.bytes(of: name, digest: digest)
            if bytes == nil { damaged.withLock { _ = $0.insert(name) } }
            memo = .some(bytes)
            return bytes
        }
    }

    /// Takes the row's bytes read with every other row's, when they are those it was written
    /// with; otherwise they are read again by name when asked for.
    func take(_ bytes: (cover: Data?, images: Data)) {
        guard ImageIndex.holds(bytes, digest: digest) else { return }
        read.withLock { memo in if memo == nil { memo = .some(bytes) } }
    }

    /// The row's images; nil when its bytes are damaged.
    package var images: BundleImages? {
        decoded.withLock { memo in
            if let memo { return memo }
            counters.count(.imageRowsDecoded)
            // Checked against the row's digest when read, the bytes are those a build encoded: they decode.
            let images = bytes.flatMap { try? BinaryDecoder().read(BundleImages.self, from: $0.images) }
            memo = .some(images)
            return images
        }
    }

    /// The composed cover, read and decoded from its own bytes.
    package var cover: BundleImages.Image? {
        decodedCover.withLock { memo in
            if let memo { return memo }
            var bytes: Data?
            if let coverDigest {
                counters.count(.imageRowsFetched)
                bytes = index?.cover(of: name, digest: coverDigest)
                if bytes == nil { damaged.withLock { _ = $0.insert(name) } }
            }
            // Checked against its digest when read, the bytes are those a build encoded: they decode.
            let cover = bytes.flatMap { try? BinaryDecoder().read(BundleImages.Image.self, from: $0) }
            memo = .some(cover)
            return cover
        }
    }
}
