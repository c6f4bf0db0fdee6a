import Foundation

/// The submissions a site has synced, by id and checksum, so a remote inbox's files are
/// downloaded once. It lives in the cache: losing it costs downloads, never correctness,
/// because accepted files have content-addressed names.
struct SyncLedger: Sendable {
    let path: String
    private let known: Set<String>

    init(path: String) {
        self.path = path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        known = Set(text.split(separator: "\n").map(String.init))
    }

    private static func line(_ submission: InboxSubmission) -> String {
        "\(submission.id) \(SHA256Hex.of(Data(submission.checksum.utf8)))"
    }

    func contains(_ submission: InboxSubmission) -> Bool { known.contains(Self.line(submission)) }

    func record(_ submission: InboxSubmission) throws {
        guard !contains(submission) else { return }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystem.Failure.errno(path) }
        defer { close(descriptor) }
        let bytes = Array((Self.line(submission) + "\n").utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw FileSystem.Failure.errno(path) }
    }
}
