import TeardownBase

/// One machine bundle's images as the image index keeps them: each image's source, key and
/// outcome in the order the image step lists them, and the cover composed from its layers.
package struct BundleImages: Codable, Sendable {
    package struct Image: Codable, Sendable {
        /// The source's absolute path ("" for the composed cover).
        package let path: String
        /// Nil when no key could be made (the file could not be read): such a bundle is keyed again.
        package let key: String?
        package let outcome: ImageCache.Outcome?

        /// Keyed, with an outcome.
        var isKnown: Bool { key != nil && outcome != nil }
    }

    /// The bundle's signature when its keys were made (`ContentDigest.description`), when one
    /// vouched for them: a bundle changed within the racy window is keyed again on every build.
    package let signature: String?
    package let images: [Image]
    package let cover: Image?

    /// Whether the row holds the keys and outcomes of these sources, for a bundle with this signature.
    package func holds(signature: String?, paths: some Collection<String>) -> Bool {
        guard let signature, self.signature == signature, images.count == paths.count, cover.map(\.isKnown) ?? true
        else { return false }
        return zip(images, paths).allSatisfy { $0.path == $1 && $0.isKnown }
    }

    /// `holds` for a bundle whose images are not listed: its signature vouches that they are
    /// the row's, if they are as many and lie in its `folder` (absolute, with a trailing slash)
    /// as it is now. A bundle with parts has a composed cover, which the row must hold too.
    package func holds(signature: String?, count: Int, folder: String, hasParts: Bool) -> Bool {
        summary.holds(signature: signature, count: count, folder: folder, hasParts: hasParts)
    }

    /// What the image index keeps beside the row, so that a bundle is carried without its row
    /// being decoded.
    package var summary: Summary {
        var prefix = images.first.map { Array($0.path.utf8) }
        for image in images.dropFirst() where prefix?.isEmpty == false {
            let shared = zip(prefix!, image.path.utf8).prefix { $0 == $1 }.count
            prefix!.removeLast(prefix!.count - shared)
        }
        return Summary(signature: signature, count: images.count, imagesKnown: images.allSatisfy(\.isKnown),
                       coverKnown: cover?.isKnown == true, pathsPrefix: prefix.map { String(decoding: $0, as: UTF8.self) },
                       failed: images.contains { if case .failed? = $0.outcome { true } else { false } })
    }

    /// A row's signature and image count, whether each image and the cover has a key and an
    /// outcome, the longest prefix its images' paths share (nil without images), and whether
    /// one failed.
    package struct Summary: Sendable, Equatable {
        package let signature: String?
        package let count: Int
        package let imagesKnown: Bool
        package let coverKnown: Bool
        package let pathsPrefix: String?
        package let failed: Bool

        /// `BundleImages.holds(signature:count:folder:hasParts:)`: every path lies in `folder`
        /// when the prefix they all share does.
        package func holds(signature: String?, count: Int, folder: String, hasParts: Bool) -> Bool {
            guard let signature, self.signature == signature, self.count == count, imagesKnown, hasParts ? coverKnown : true
            else { return false }
            return pathsPrefix.map { ByteSearch.hasPrefix($0, folder) } ?? true
        }
    }
}
