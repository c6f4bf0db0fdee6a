/// The published files of a photo: names beside its page, and where they are in the cache.
package struct PhotoFiles {
    package let all: [(published: String, cached: String)]

    package init(all: [(published: String, cached: String)]) {
        self.all = all
    }

    package static func variant(_ photo: Photo, _ width: Int, _ fileExtension: String) -> String {
        "\(photo.file.stem)-\(width).\(fileExtension)"
    }

    /// A copy of a machine's cover, beside its page.
    package static func cover(_ width: Int, _ fileExtension: String) -> String { "cover-\(width).\(fileExtension)" }

    /// The stripped original keeps the photo's name, so a download is named like the upload.
    package static func download(_ photo: Photo, fileExtension: String) -> String {
        "\(photo.file.stem).\(fileExtension)"
    }
}
