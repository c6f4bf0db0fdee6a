/// The published files of a photo: names beside its page, and where they are in the cache.
struct PhotoFiles {
    let all: [(published: String, cached: String)]

    init(photo: Photo, processed: ProcessedPhoto) {
        var files = processed.variants.flatMap { variant in
            [(Self.variant(photo, variant.width, "webp"), variant.webp), (Self.variant(photo, variant.width, "jpg"), variant.jpeg)]
        }
        if let original = processed.original { files.append((Self.download(photo, processed), original)) }
        all = files
    }

    static func variant(_ photo: Photo, _ width: Int, _ fileExtension: String) -> String {
        "\(photo.file.stem)-\(width).\(fileExtension)"
    }

    /// A copy of a machine's cover, beside its page.
    static func cover(_ width: Int, _ fileExtension: String) -> String { "cover-\(width).\(fileExtension)" }

    /// The stripped original keeps the photo's name, so a download is named like the upload.
    static func download(_ photo: Photo, _ processed: ProcessedPhoto) -> String {
        "\(photo.file.stem).\(processed.format.fileExtension)"
    }
}
