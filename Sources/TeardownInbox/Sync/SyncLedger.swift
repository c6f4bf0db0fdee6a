import Foundation
import SystemPackage
import TeardownBase

/// The submissions a site has synced, by id and checksum, so a remote inbox's files are
/// downloaded once. It lives in the cache: losing it costs downloads, never correctness,
/// because accepted files have content-addressed names.
package struct SyncLedger: Sendable {
    package let path: String
    private let known: Set<String>

    package init(path: String) {
        self.path = path
        // No ledger yet is an empty ledger.
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        known = Set(text.split(separator: "\n").map(String.init))
    }

    private static func line(_ submission: InboxSubmission) -> String {
        "\(submission.id) \(SHA256Hex.of(Data(submission.checksum.utf8)))"
    }

    package func contains(_ submission: InboxSubmission) -> Bool { known.contains(Self.line(submission)) }

    package func record(_ submission: InboxSubmission) throws {
        guard !contains(submission) else { return }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        do {
            let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .append, .closeOnExec],
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try file.closeAfter { _ = try file.writeAll((Self.line(submission) + "\n").utf8) }
        } catch {
            throw FileSystem.Failure(path: path, error)
        }
    }
}
