import Foundation

/// A submission held for moderation, read back from its folder.
public struct HeldSubmission: Sendable {
    public let id: String
    public let folder: String
    public let files: [String]
    public let sha256: [String: String]
    /// The comment's Markdown, or the photo's details, as the moderator reads them.
    public let text: String

    init(id: String, files: [String], sha256: [String: String], text: String) {
        self.id = id
        folder = ""
        self.files = files
        self.sha256 = sha256
        self.text = text
    }

    init?(id: String, folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), !names.isEmpty else { return nil }
        self.id = id
        self.folder = folder
        files = names.sorted()
        var sha256: [String: String] = [:]
        var text = ""
        for name in files {
            guard let digest = SHA256Hex.of(file: folder + "/" + name) else { return nil }
            sha256[name] = digest
            if name.hasSuffix(".comment.md") || name.hasSuffix(".photo.yaml") {
                text = FileManager.default.contents(atPath: folder + "/" + name).flatMap(TextFile.decode) ?? ""
            }
        }
        self.sha256 = sha256
        self.text = text
    }

    public var isPhoto: Bool { files.contains(id + ".photo.yaml") }
}
