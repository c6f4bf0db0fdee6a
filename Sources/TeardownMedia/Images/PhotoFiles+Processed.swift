import TeardownContent

/// The published files of a photo: names beside its page, and where they are in the cache.
extension PhotoFiles {
    package init(photo: Photo, processed: ProcessedPhoto) {
        var files = processed.variants.flatMap { variant in
            [(Self.variant(photo, variant.width, "webp"), variant.webp), (Self.variant(photo, variant.width, "jpg"), variant.jpeg)]
        }
        if let original = processed.original { files.append((Self.download(photo, processed), original)) }
        self.init(all: files)
    }

    /// The stripped original keeps the photo's name, so a download is named like the upload.
    package static func download(_ photo: Photo, _ processed: ProcessedPhoto) -> String {
        download(photo, fileExtension: processed.format.fileExtension)
    }
}
