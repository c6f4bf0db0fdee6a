import Foundation
import TeardownBase

/// An inbox on an http(s) or ftp server, read through libcurl. Its manifest.json is required:
/// it lists what there is, so only submissions not seen before are downloaded.
package struct RemoteInbox: InboxSource {
    package let base: String
    /// A folder for downloads in progress.
    package let scratch: String
    /// Sent as a bearer token: `teardown intake` serves its inbox only to holders of its token.
    package var token: String? = nil
    /// When the whole sync must be done: every download gets the time that is left.
    package var deadline: Date = .distantFuture
    package var name: String { base }

    package var requiresDigests: Bool { true }

    package func submissions() throws(InboxFailure) -> [InboxSubmission] {
        try Inbox.parseManifest(try fetch("manifest.json", maxBytes: 64 << 20), source: base)
    }

    /// The manifest once its SHA-256 is no longer `since`, or after `wait` seconds: `teardown
    /// intake` holds the request until a submission is published (a server that does not know
    /// the query answers at once). Only http(s) inboxes are asked.
    package func manifest(since: String, wait: Double) throws(InboxFailure) -> Data {
        try fetch("manifest.json", query: "?since=\(since)&wait=\(Int(wait))", maxBytes: 64 << 20)
    }

    package var answersWhenChanged: Bool { base.lowercased().hasPrefix("http") }

    package func fetch(_ file: String, maxBytes: Int) throws(InboxFailure) -> Data {
        try fetch(file, query: "", maxBytes: maxBytes)
    }

    private func fetch(_ file: String, query: String, maxBytes: Int) throws(InboxFailure) -> Data {
        let url = (base.hasSuffix("/") ? base : base + "/") + (file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file)
            + query
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        } catch {
            throw InboxFailure(source: scratch, reason: "cannot create the download folder: \(ErrorText.text(error))",
                               receiving: true)
        }
        let path = scratch + "/download-\(getpid())-\(UUID().uuidString)"
        defer { unlink(path) }
        let left = deadline.timeIntervalSinceNow
        guard left >= 1 else { throw InboxFailure(source: url, reason: "the sync's time ran out before this download") }
        if case .failure(let failure) = Curl.fetch(url, to: path, maxBytes: maxBytes, stallSeconds: 30,
                                                   totalSeconds: Int(min(left, 86400)), token: token) {
            throw InboxFailure(source: failure.receiving ? scratch : url,
                               reason: failure.message + (failure.message.contains(String(cString: strerror(ENOSPC)))
                                                          ? ErrorText.noSpaceHint() : ""),
                               receiving: failure.receiving)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InboxFailure(source: scratch, reason: "the download of \(url) could not be read back", receiving: true)
        }
        return data
    }
}
