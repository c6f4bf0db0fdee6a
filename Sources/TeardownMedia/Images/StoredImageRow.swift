import Foundation
import TeardownBase
import TeardownContent

/// A bundle's row of the image index as the build found it: its summary, checked bytes, and
/// its images decoded only when first asked for. A carried bundle is decided on the summary,
/// and the catalog's cards read its composed cover alone; decoding every row's images and
/// looking along them to carry it was most of a one-comment sync's image step.
package final class StoredImageRow: Sendable {
    package let settings: String
    package let summary: BundleImages.Summary
    /// Whether the bytes are those the row was written with: a row whose bytes changed is a
    /// miss (its images nil), as one that did not decode was, and is written again.
    package let isWhole: Bool
    private let coverBytes: Data?
    private let bytes: Data
    private let counters: BuildCounters
    /// Nil until decoded; then the row's images, or nil when they do not decode.
    private let decoded = Locked<BundleImages??>(nil)
    private let decodedCover = Locked<BundleImages.Image??>(nil)

    init(_ row: ImageIndex.Row, counters: BuildCounters) {
        isWhole = row.isWhole
        settings = row.settings
        summary = row.summary
        coverBytes = row.cover
        bytes = row.images
        self.counters = counters
    }

    /// The row's images; nil when they do not decode (which a whole row's always do).
    package var images: BundleImages? {
        decoded.withLock { memo in
            if let memo { return memo }
            guard isWhole else { return nil }
            counters.count(.imageRowsDecoded)
            // Checked against the row's digest when read, the bytes are those a build encoded: they decode.
            let images = try? BinaryDecoder().read(BundleImages.self, from: bytes)
            memo = .some(images)
            return images
        }
    }

    /// The composed cover, read from its own bytes.
    package var cover: BundleImages.Image? {
        decodedCover.withLock { memo in
            if let memo { return memo }
            guard isWhole else { return nil }
            // Checked against the row's digest when read, the bytes are those a build encoded: they decode.
            let cover = coverBytes.flatMap { try? BinaryDecoder().read(BundleImages.Image.self, from: $0) }
            memo = .some(cover)
            return cover
        }
    }
}
