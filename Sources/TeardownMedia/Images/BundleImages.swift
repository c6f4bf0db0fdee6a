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
        guard let signature, self.signature == signature, images.count == count,
              hasParts ? cover?.isKnown == true : true
        else { return false }
        return images.allSatisfy { $0.isKnown && ByteSearch.hasPrefix($0.path, folder) }
    }
}
