import Foundation
import TeardownBase

/// What a build asks of a machine it does not render, kept in the content cache beside the
/// machine's head and read without decoding it (`MachineHeadStore`): most machines of a large
/// catalog are carried as the store recorded them, and decoding every head to find a few
/// facts grew with the catalog.
package struct MachineBrief: Sendable, Hashable, Codable {
    /// Every comment id of the machine and its parts, and every photo's id and file name, each
    /// on a line of its own after a line break: what sync's review looks a submission's id up in.
    package let ids: String
    /// How many images the machine has: its photos, its cover photo, and each part's layer and
    /// photos (the length of its image index row).
    package let imageCount: Int
    /// Whether machine.yaml names a cover photo (without one, the layers composed are the cover).
    package let namesCover: Bool
    package let partCount: Int
    /// Whether the machine has a manual of its own.
    package let hasManual: Bool
    /// What the site's indexes file the machine by (`MachineHead.listing`).
    package let listing: ContentDigest
    /// The dates of its newest comment and newest dated photo, of the machine or a part: the
    /// site's feed decodes the head of a machine only if it can make the list.
    package let newestComment: ISODate?
    package let newestPhoto: ISODate?
    /// What a catalog card shows of it: the catalog page that holds a machine is made again
    /// with each comment on it, and decoded the head of every machine it lists for these.
    package let name: String
    package let summary: String
    package let tags: [String]
    /// The comments and photos of the machine and its parts.
    package let commentCount: Int
    package let photoCount: Int
    /// The cover photo machine.yaml names.
    package let cover: SourceFile?

    package init(_ head: MachineHead) {
        let photos = head.photos + head.parts.flatMap(\.photos)
        ids = head.commentIDs + photos.flatMap { [$0.id, $0.file.stem].compactMap { $0 } }.map { $0 + "\n" }.joined()
        imageCount = photos.count + (head.cover == nil ? 0 : 1) + head.parts.count
        namesCover = head.cover != nil
        partCount = head.parts.count
        hasManual = !head.manual.isEmpty
        listing = head.listing
        newestComment = head.recent.newest
        newestPhoto = photos.compactMap(\.date).max()
        name = head.name
        summary = head.summary
        tags = head.tags
        commentCount = head.commentCount + head.parts.reduce(0) { $0 + $1.commentCount }
        photoCount = photos.count
        cover = head.cover
    }
}

extension MachineBrief: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        ids = try source.string()
        imageCount = try source.signed()
        namesCover = try source.flag()
        partCount = try source.signed()
        hasManual = try source.flag()
        listing = try source.digest()
        newestComment = try source.optional()
        newestPhoto = try source.optional()
        name = try source.string()
        summary = try source.string()
        tags = try source.strings()
        commentCount = try source.signed()
        photoCount = try source.signed()
        cover = try source.optional()
    }
}
