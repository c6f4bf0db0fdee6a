import Foundation
import TeardownBase

/// A machine's newest comments, as many as a feed lists, decoded when first read. Every
/// build decodes every machine's head, and these are the larger part of it (up to 50 comments
/// with their text a machine); the site's feed and catalog.json need only the date of each
/// machine's newest comment to know whose comments they show.
package final class RecentComments: Codable, Hashable, @unchecked Sendable {
    /// The date of the newest comment, when there is one.
    package let newest: ISODate?
    private let state: Locked<State>

    private enum State {
        case comments([RecentComment])
        case stored(BinaryBlob)
    }

    package init(_ comments: [RecentComment]) {
        newest = comments.first?.comment.date
        state = Locked(.comments(comments))
    }

    /// Comments kept as the binary coder's bytes, decoded when first read.
    package init(newest: ISODate?, stored blob: BinaryBlob) {
        self.newest = newest
        state = Locked(.stored(blob))
    }

    /// Newest first.
    package var all: [RecentComment] {
        state.withLock { state in
            switch state {
            case .comments(let comments): return comments
            case .stored(let blob):
                // Bytes this process or an earlier build wrote, inside an entry whose digest was checked.
                let comments = (try? BinaryDecoder().read([RecentComment].self, from: Data(blob.bytes))) ?? []
                state = .comments(comments)
                return comments
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case newest, comments }

    package init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        newest = try container.decodeIfPresent(ISODate.self, forKey: .newest)
        state = Locked(.stored(try container.decode(BinaryBlob.self, forKey: .comments)))
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(newest, forKey: .newest)
        let blob: BinaryBlob = try state.withLock { state in
            switch state {
            case .stored(let blob): return blob
            case .comments(let comments): return BinaryBlob(bytes: [UInt8](try BinaryEncoder().encode(comments)))
            }
        }
        try container.encode(blob, forKey: .comments)
    }

    package static func == (a: RecentComments, b: RecentComments) -> Bool { a.newest == b.newest && a.all == b.all }

    package func hash(into hasher: inout Hasher) { hasher.combine(newest) }
}
