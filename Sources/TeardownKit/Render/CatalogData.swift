import Foundation

/// catalog.json: every machine with what an app's "Download machines" screen needs, with
/// absolute URLs. Version 2 of the format described by catalog.schema.json (`CatalogSchema`):
/// version 1 counted comments and put them in the bundle's download.
struct CatalogData: Encodable {
    struct Image: Encodable {
        let url: String
        let width: Int
        let height: Int
    }

    struct Download: Encodable {
        let url: String
        /// In bytes.
        let size: Int
        let sha256: String
    }

    /// The download of a machine's comments: no size or digest, which would change
    /// catalog.json with every comment.
    struct CommentsDownload: Encodable {
        let url: String
    }

    /// Nothing here changes with a comment, so that a sync of comments leaves catalog.json as it was.
    struct MachineEntry: Encodable {
        let slug: String
        let name: String
        let summary: String
        /// The latest of machine.yaml's `updated` and every photo's date; nil when none is known.
        let updated: String?
        let partCount: Int
        let photoCount: Int
        let tags: [String]
        let url: String
        /// machine.json, which draws the machine.
        let data: String
        /// New comments and photos.
        let feed: String
        let cover: Image?
        /// The bundle without its comments.
        let download: Download
        let comments: CommentsDownload

        private enum CodingKeys: String, CodingKey {
            case slug, name, summary, updated, partCount, photoCount, tags, url, data, feed, cover, download, comments
        }

        /// The schema requires `updated` and `cover`, as null when there is none; the synthesized
        /// encoder leaves an absent value out.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(slug, forKey: .slug)
            try container.encode(name, forKey: .name)
            try container.encode(summary, forKey: .summary)
            try container.encode(updated, forKey: .updated)
            try container.encode(partCount, forKey: .partCount)
            try container.encode(photoCount, forKey: .photoCount)
            try container.encode(tags, forKey: .tags)
            try container.encode(url, forKey: .url)
            try container.encode(data, forKey: .data)
            try container.encode(feed, forKey: .feed)
            try container.encode(cover, forKey: .cover)
            try container.encode(download, forKey: .download)
            try container.encode(comments, forKey: .comments)
        }
    }

    struct CollectionEntry: Encodable {
        let slug: String
        let title: String
        let description: String
        let url: String
        let machines: [String]
    }

    /// The intake service's API, when site.yaml names one.
    struct Intake: Encodable {
        let comments: String
        let photos: String
        let openapi: String

        init(_ base: String) {
            comments = base + "/api/v1/comments"
            photos = base + "/api/v1/photos"
            openapi = base + "/api/v1/openapi.json"
        }
    }

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", version, title, description, url, machines, collections, intake
    }

    let schema: String
    let version = 2
    let title: String
    let description: String
    let url: String
    let machines: [MachineEntry]
    let collections: [CollectionEntry]
    let intake: Intake?

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? "{}"
    }

    /// The newest date of a machine's bundle: its `updated`, or a photo's.
    static func updated(_ machine: MachineView, photos: [Photo]) -> ISODate? {
        ([machine.updated].compactMap { $0 } + photos.compactMap(\.date)).max()
    }
}
