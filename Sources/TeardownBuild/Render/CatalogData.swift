import Foundation
import TeardownBase
import TeardownContent

/// catalog.json: every machine with what an app's "Download machines" screen needs, with
/// absolute URLs. Version 2 of the format described by catalog.schema.json (`CatalogSchema`):
/// version 1 counted comments and put them in the bundle's download.
package struct CatalogData: Encodable {
    package struct Image: Encodable {
        package let url: String
        package let width: Int
        package let height: Int
    }

    package struct Download: Encodable {
        package let url: String
        /// In bytes.
        package let size: Int
        package let sha256: String
    }

    /// The download of a machine's comments: no size or digest, which would change
    /// catalog.json with every comment.
    package struct CommentsDownload: Encodable {
        package let url: String
    }

    /// Nothing here changes with a comment, so that a sync of comments leaves catalog.json as it was.
    package struct MachineEntry: Encodable {
        package let slug: String
        package let name: String
        package let summary: String
        /// The latest of machine.yaml's `updated` and every photo's date; null when none is known.
        @NullWhenAbsent package var updated: String?
        package let partCount: Int
        package let photoCount: Int
        package let tags: [String]
        package let url: String
        /// machine.json, which draws the machine.
        package let data: String
        /// New comments and photos.
        package let feed: String
        @NullWhenAbsent package var cover: Image?
        /// The bundle without its comments.
        package let download: Download
        package let comments: CommentsDownload
    }

    package struct CollectionEntry: Encodable {
        package let slug: String
        package let title: String
        package let description: String
        package let url: String
        package let machines: [String]
    }

    /// The intake service's API, when site.yaml names one.
    package struct Intake: Encodable {
        package let comments: String
        package let photos: String
        package let openapi: String

        package init(_ base: String) {
            comments = base + "/api/v1/comments"
            photos = base + "/api/v1/photos"
            openapi = base + "/api/v1/openapi.json"
        }
    }

    package enum CodingKeys: String, CodingKey {
        case schema = "$schema", version, title, description, url, machines, collections, intake
    }

    package let schema: String
    package let version = 2
    package let title: String
    package let description: String
    package let url: String
    package let machines: [MachineEntry]
    package let collections: [CollectionEntry]
    package let intake: Intake?

    package var json: String { Self.encoded(self) + "\n" }

    /// The file with `machines` (each entry's `listed`) in place of the empty list it was made
    /// with: the same bytes as the whole encoded at once, which a test compares.
    package func json(machines entries: [String]) -> String {
        let whole = json
        guard !entries.isEmpty, let empty = whole.range(of: "\n  \"machines\" : [\n\n  ]") else { return whole }
        return whole[..<empty.lowerBound] + "\n  \"machines\" : [\n" + entries.joined(separator: ",\n") + "\n  ]"
            + whole[empty.upperBound...]
    }

    fileprivate static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        // Strings, numbers and arrays of them: encoding cannot fail.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The newest date of a machine's bundle: its `updated`, or a photo's.
    package static func updated(_ machine: MachineView, photos: [Photo]) -> ISODate? {
        ([machine.updated].compactMap { $0 } + photos.compactMap(\.date)).max()
    }
}

/// A value the schema requires, written as null when absent: the synthesized encoder leaves a
/// nil optional out.
@propertyWrapper
package struct NullWhenAbsent<Value: Encodable>: Encodable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension CatalogData.MachineEntry {
    /// The entry as the file's list holds it (`CatalogData.json(machines:)`): its lines two
    /// levels deeper than alone, one for the list and one for the file's object. Written by
    /// hand in JSONEncoder's bytes (a test compares them): catalog.json is made again whenever
    /// one machine's entry changes, from every machine's.
    package var listed: String {
        var json = JSONWriter(capacity: 1024, indented: 2)
        json.raw("    ")
        json.object { json in
            json.key("comments")
            json.object { $0.member("url", comments.url) }
            json.key("cover")
            if let cover {
                json.object { json in
                    json.member("height", cover.height)
                    json.member("url", cover.url)
                    json.member("width", cover.width)
                }
            } else {
                json.null()
            }
            json.member("data", data)
            json.key("download")
            json.object { json in
                json.member("sha256", download.sha256)
                json.member("size", download.size)
                json.member("url", download.url)
            }
            json.member("feed", feed)
            json.member("name", name)
            json.member("partCount", partCount)
            json.member("photoCount", photoCount)
            json.member("slug", slug)
            json.member("summary", summary)
            json.key("tags")
            json.array(tags) { $0.string($1) }
            json.key("updated")
            if let updated { json.string(updated) } else { json.null() }
            json.member("url", url)
        }
        return json.text
    }
}
