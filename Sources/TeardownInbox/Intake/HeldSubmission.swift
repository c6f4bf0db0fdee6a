import Foundation
import TeardownBase
import TeardownContent

/// A submission held for moderation, read back from its folder.
public struct HeldSubmission: Sendable {
    public let id: String
    public let folder: String
    public let files: [String]
    public let sha256: [String: String]
    /// The comment's Markdown, or the photo's details, as the moderator reads them.
    public let text: String
    /// A photo's file, what it weighs and its size in pixels (when its header says), so that a
    /// moderator can look at what they approve; nil for a comment, or where the file is not
    /// on this machine (a bucket's inbox).
    public private(set) var photo: HeldPhoto?

    public struct HeldPhoto: Sendable, Equatable {
        public let path: String
        public let bytes: Int
        public let pixels: PixelSize?
    }

    package init(id: String, files: [String], sha256: [String: String], text: String) {
        self.id = id
        folder = ""
        self.files = files
        self.sha256 = sha256
        self.text = text
    }

    package init?(id: String, folder: String) {
        let names = FileSystem.names(in: folder)
        guard !names.isEmpty else { return nil }
        self.id = id
        self.folder = folder
        files = names.sorted()
        var sha256: [String: String] = [:]
        var text = ""
        for name in files {
            guard let digest = SHA256Hex.of(file: folder + "/" + name) else { return nil }
            sha256[name] = digest
            if SubmissionFiles.isDetails(name) {
                text = FileManager.default.contents(atPath: folder + "/" + name).flatMap(TextFile.decode) ?? ""
            }
        }
        self.sha256 = sha256
        self.text = text
        if let name = files.first(where: { !$0.hasSuffix(".photo.yaml") && $0.hasPrefix(id + ".") && files.contains(id + ".photo.yaml") }) {
            let path = folder + "/" + name
            let head = FileHandle(forReadingAtPath: path).flatMap { handle in
                // A photo whose head cannot be read is listed without its pixel size.
                defer { try? handle.close() }
                return try? handle.read(upToCount: 65536)
            }
            // A header that does not parse leaves the size unknown; the photo is still listed.
            photo = HeldPhoto(path: path, bytes: FileSystem.size(of: path) ?? 0,
                              pixels: head.flatMap { try? ImageHeader.size(of: $0, pathExtension: (name as NSString).pathExtension.lowercased()) })
        }
    }

    public var isPhoto: Bool { files.contains(id + ".photo.yaml") }
}
