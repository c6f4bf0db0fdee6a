import Foundation
import TeardownBase

/// Whether what a content cache entry names lies inside its bundle. The loader only ever
/// names files inside it; an entry is read back as it was written, so a forged one (a CI cache
/// restored from a shared key) could name any file of the host, and the build would publish
/// it. Every stored path is checked again, as the loader checks what it reads.
extension MachineHead {
    package func lies(within folder: String) -> Bool {
        guard self.folder.absolutePath == folder else { return false }
        func inside(_ file: SourceFile?) -> Bool { file.map { Self.isPlain($0.absolutePath, below: folder) } ?? true }
        func photosInside(_ photos: [Photo]) -> Bool { photos.allSatisfy { inside($0.file) && inside($0.sidecar) } }
        return inside(cover) && photosInside(photos)
            && parts.allSatisfy { inside($0.layer.image) && photosInside($0.photos) }
            && (manual.pages.isEmpty && manual.assets.isEmpty || Self.isPlain(manual.folder.absolutePath, below: folder))
            && manual.pages.allSatisfy { inside($0.body.file) }
            && manual.assets.allSatisfy { Self.isPlain(manual.folder.absolutePath + "/" + $0, below: folder) }
    }

    /// `path` is below `folder` by plain names: no "..", ".", or empty segment on the way.
    /// Scanned as bytes, not split into Substrings: every path of every head is checked.
    package static func isPlain(_ path: String, below folder: String) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let path = Array(path.utf8), folder = folder.utf8
        guard path.count > folder.count + 1, path.starts(with: folder), path[folder.count] == slash else { return false }
        var start = folder.count + 1
        for index in start...path.count where index == path.count || path[index] == slash {
            let length = index - start
            if length == 0 || (path[start] == dot && (length == 1 || (length == 2 && path[start + 1] == dot))) { return false }
            start = index + 1
        }
        return true
    }
}

extension Part {
    /// The part's files (its layer, photos, description and comments) lie inside `folder`.
    package func lies(within folder: String) -> Bool {
        func inside(_ file: SourceFile?) -> Bool { file.map { MachineHead.isPlain($0.absolutePath, below: folder) } ?? true }
        return inside(layer.image) && inside(description?.file)
            && community.photos.allSatisfy { inside($0.file) && inside($0.sidecar) }
            && community.comments.allSatisfy { inside($0.body.file) }
    }
}
