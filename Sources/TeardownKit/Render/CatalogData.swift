import Foundation

/// catalog.json: every machine with what an app's "Download machines" screen needs, with
/// absolute URLs. Version 1 of the format described by catalog.schema.json (`CatalogSchema`).
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

    struct MachineEntry: Encodable {
        let slug: String
        let name: String
        let summary: String
        /// The latest of machine.yaml's `updated` and every comment's and photo's date; nil when none is known.
        let updated: String?
        let partCount: Int
        let commentCount: Int
        let photoCount: Int
        let tags: [String]
        let url: String
        /// machine.json, which draws the machine.
        let data: String
        let feed: String
        let cover: Image?
        let download: Download
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
    let version = 1
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

    /// The newest date a machine's content carries.
    static func updated(_ machine: MachineView) -> ISODate? {
        // Through the machine's feed unit: one unit a machine, not the text and photos of every part.
        let dates = [machine.updated, machine.newestCommentDate].compactMap { $0 }
            + machine.feedPhotos.compactMap(\.photo.date)
        return dates.max()
    }
}
