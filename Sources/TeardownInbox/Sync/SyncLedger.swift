import Foundation
import SystemPackage
import TeardownBase

/// The submissions a site has synced, by id and checksum, so a remote inbox's files are
/// downloaded once. It lives in the cache: losing it costs downloads, never correctness,
/// because accepted files have content-addressed names.
///
/// It grows by a line per submission ever synced, and a sync asks about a few: its lines are
/// indexed by a hash of their bytes, not made into Strings (which was most of a one-comment
/// sync's review at a few thousand lines).
package struct SyncLedger: Sendable {
    package let path: String
    private let bytes: [UInt8]
    /// Where each line starts, by the hash of its bytes.
    private let starts: [Int: [Int]]

    package init(path: String) {
        self.path = path
        // No ledger yet is an empty ledger.
        bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
        var starts: [Int: [Int]] = [:]
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            while start < buffer.count {
                let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
                if end > start { starts[Self.hash(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start..<end]))), default: []].append(start) }
                start = end + 1
            }
        }
        self.starts = starts
    }

    private static func hash(_ line: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: line)
        return hasher.finalize()
    }

    private static func line(_ submission: InboxSubmission) -> String {
        "\(submission.id) \(SHA256Hex.of(Data(submission.checksum.utf8)))"
    }

    package func contains(_ submission: InboxSubmission) -> Bool {
        let line = Array(Self.line(submission).utf8)
        let candidates = line.withUnsafeBytes { starts[Self.hash($0)] } ?? []
        return candidates.contains { start in
            start + line.count <= bytes.count && bytes[start..<(start + line.count)].elementsEqual(line)
                && (start + line.count == bytes.count || bytes[start + line.count] == UInt8(ascii: "\n"))
        }
    }

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
