import Foundation
import TeardownBase

/// The text of a machine and its parts: descriptions, specifications and comments. Only the
/// machine's own pages show it, so a build that renders none of them never decodes it: the
/// content cache hands it over as stored bytes (`MachineTextStore`).
package struct MachineText: Sendable, Hashable, Codable {
    package struct PartText: Sendable, Hashable, Codable {
        package let description: MarkdownSource?
        package let specs: [Spec]
        /// Newest first.
        package let comments: [Comment]
    }

    package let description: MarkdownSource?
    /// The machine's own comments, newest first.
    package let comments: [Comment]
    /// In the machine's part order.
    package let parts: [PartText]

    /// The digest of a description and its discussion: the text unit pages read (`InputUnit`).
    package static func digest(_ description: MarkdownSource?, _ comments: [Comment]) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(description?.text)
        fingerprint.add(comments.count)
        for comment in comments {
            fingerprint.add(comment.id)
            fingerprint.add(comment.author)
            fingerprint.add(comment.date.text)
            fingerprint.add(comment.body.text)
        }
        return fingerprint.digest
    }
}

/// A machine's text, held as a value or as the content cache's bytes, decoded on first use and
/// dropped again once other machines' text has been decoded since (`RecentlyDecoded`).
///
/// The bytes carry their digest: bytes that do not match it, or do not decode, are read again
/// from the bundle's files (`reload`), so a damaged or concurrently rewritten cache entry
/// costs time, never a wrong page.
package final class MachineTextStore: Forgettable, @unchecked Sendable {
    private struct Stored {
        let read: @Sendable () -> Data?
        let digest: ContentDigest
        let reload: @Sendable () -> MachineText?
    }

    private enum State {
        /// Text with no stored form: kept.
        case value(MachineText)
        case stored(Stored)
        /// Decoded from its stored form, until `RecentlyDecoded` forgets it.
        case decoded(MachineText, Stored)
    }

    private let state: Locked<State>

    package init(_ text: MachineText) { state = Locked(.value(text)) }

    /// Bytes `BinaryEncoder` wrote, read by `read` when first needed and checked against `digest`.
    package init(read: @escaping @Sendable () -> Data?, digest: ContentDigest, reload: @escaping @Sendable () -> MachineText?) {
        state = Locked(.stored(Stored(read: read, digest: digest, reload: reload)))
    }

    package var value: MachineText {
        let (value, decodedNow) = state.withLock { state -> (MachineText, Bool) in
            switch state {
            case .value(let text), .decoded(let text, _): return (text, false)
            case .stored(let stored):
                var text: MachineText?
                if let data = stored.read(), Self.digest(of: data) == stored.digest {
                    // Bytes that do not decode are a miss, as a wrong digest is: the caller reloads the bundle.
                    text = try? BinaryDecoder().read(MachineText.self, from: data)
                }
                let value = text ?? stored.reload() ?? MachineText(description: nil, comments: [], parts: [])
                state = .decoded(value, stored)
                return (value, true)
            }
        }
        if decodedNow { RecentlyDecoded.note(self) }
        return value
    }

    /// Drops the decoded text; the next read decodes it again.
    package func forget() {
        state.withLock { state in
            if case .decoded(_, let stored) = state { state = .stored(stored) }
        }
    }

    /// The stored form of `text`, and its digest.
    package static func encode(_ text: MachineText) -> (data: Data, digest: ContentDigest)? {
        // Unencodable text is not stored: nil makes the caller keep it in memory only.
        guard let data = try? BinaryEncoder().encode(text) else { return nil }
        return (data, digest(of: data))
    }

    package static func digest(of data: Data) -> ContentDigest { ContentDigest(bytes: data) }
}
