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
    }
}
