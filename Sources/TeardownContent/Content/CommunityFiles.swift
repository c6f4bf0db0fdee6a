import Foundation
import TeardownBase

/// The files of community content as they lie in a bundle, `comments/<name>.md` and
/// `photos/<name>.yaml` beside the photo: written by sync, read by `CommunityLoader`. Their
/// fields are defined here once.
package enum CommunityFiles {
    package static let commentKeys: Set<String> = ["author", "date", "id"]
    package static let photoKeys: Set<String> = ["caption", "author", "date", "credit", "license", "location", "id"]

    /// A filed comment: its front matter, then its Markdown ending with a line break.
    package static func comment(id: String, author: String, date: String, body: String) -> Data {
        var fields = YAMLFields()
        fields.add("id", id)
        fields.add("author", author)
        fields.add("date", date)
        return fields.markdown(body)
    }

    /// A filed photo's sidecar: who took it and on what terms.
    package static func photoSidecar(id: String, author: String, date: String, caption: String?, license: String?,
                                     credit: String?, location: Bool) -> Data {
        var fields = YAMLFields()
        fields.add("id", id)
        fields.add("author", author)
        fields.add("date", date)
        fields.add("caption", caption)
        fields.add("license", license)
        fields.add("credit", credit)
        fields.add("location", location)
        return Data(fields.text.utf8)
    }
}
