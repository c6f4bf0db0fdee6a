import Foundation
import TeardownBase

/// The files of a submission in an inbox, as intake writes them and sync reads them: a comment
/// (`<id>.comment.md`: front matter with machine, part, author and date, then Markdown), a photo
/// (`<id>.photo.yaml` with machine, part, author, date, caption, location and file, beside the
/// image it names) or a takedown (`<id>.takedown.yaml` with target and reason). Their names
/// and fields are defined here once.
package enum SubmissionFiles {
    package static func comment(_ id: String) -> String { id + commentSuffix }
    package static func photo(_ id: String) -> String { id + photoSuffix }
    package static func takedown(_ id: String) -> String { id + takedownSuffix }

    /// Whether `name` holds a submission's text: a comment, or a photo's details.
    package static func isDetails(_ name: String) -> Bool { name.hasSuffix(commentSuffix) || name.hasSuffix(photoSuffix) }
    package static func isTakedown(_ name: String) -> Bool { name.hasSuffix(takedownSuffix) }

    /// A comment as intake writes it.
    package static func comment(machine: String, part: String?, author: String, date: String, body: String) -> Data {
        var fields = YAMLFields()
        fields.add("machine", machine)
        fields.add("part", part)
        fields.add("author", author)
        fields.add("date", date)
        return fields.markdown(body)
    }

    /// A photo's details as intake writes them; `file` names the image in the same submission.
    package static func photo(machine: String, part: String?, author: String, date: String, caption: String?,
                              location: Bool, file: String) -> Data {
        var fields = YAMLFields()
        fields.add("machine", machine)
        fields.add("part", part)
        fields.add("author", author)
        fields.add("date", date)
        fields.add("caption", caption)
        fields.add("location", location)
        fields.add("file", file)
        return Data(fields.text.utf8)
    }

    private static let commentSuffix = ".comment.md"
    private static let photoSuffix = ".photo.yaml"
    private static let takedownSuffix = ".takedown.yaml"
}
