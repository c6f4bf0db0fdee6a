import Foundation
import TeardownBase

/// The form of the memos a build keeps beside its store (`FeedEntries`):
/// the digest of the rest, the memo's format, then its body. A memo that is not whole, or of
/// another format, is none; one is written to a temporary file and renamed.
enum MemoFile {
    /// The body of the memo at `file`, past its format; nil when there is none that will do.
    static func read(_ file: String, format: String) -> BinaryDecoder.Source? {
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let source = BinaryDecoder.Source(bytes: [UInt8](data))
        // A memo cut short or of another layout is none: the build does the work it saves.
        guard let digest = try? source.digest(),
              ContentDigest(bytes: data.suffix(from: data.startIndex + source.position)) == digest,
              (try? source.string()) == format
        else { return nil }
        return source
    }

    /// Writes `body` as the memo at `file`. A memo that cannot be written costs the next build
    /// the work it would have saved, not the site.
    static func write(_ body: BinaryEncoder.Sink, format: String, to file: String) {
        let rest = BinaryEncoder.Sink()
        rest.string(format)
        rest.bytes += body.bytes
        let whole = BinaryEncoder.Sink()
        whole.string(ContentDigest(bytes: Data(rest.bytes)).description)
        whole.bytes += rest.bytes
        // A memo that cannot be written costs the next build the work, as said above.
        try? FileSystem.writeAtomically(Data(whole.bytes), to: file)
    }

    /// Forgets the memo at `file`: a build that may not write its next one must not leave
    /// one that no longer matches what it published.
    static func forget(_ file: String) {
        // One that cannot be removed is checked all the same: catalog.json's entries against
        // the digests of now, the feed's list against the token its publish recorded.
        try? FileSystem.unlinkIfPresent(file)
    }
}
