import Foundation
import TeardownBase
import TeardownContent

/// What a bucket holds under a prefix, as the last deploy left it: each object's SHA-256 and
/// size, one line each. It is kept as hidden objects beside the site's objects, so a deploy
/// compares digests instead of listing and reading the bucket: in shards (`DeployShards`),
/// behind an index of their digests. Earlier versions kept it as one object; one is still read.
package struct DeployManifest: Sendable, Equatable {
    /// The one-object form of earlier versions.
    package static let header = "teardown-deploy 1"
    package static let objectName = ".teardown-deploy"

    package struct Entry: Sendable, Equatable {
        package let sha256: String
        package let size: Int
    }

    package var entries: [String: Entry]

    package func serialized() -> Data { Self.serialized(entries.map { ($0.key, $0.value) }, header: Self.header) }

    /// `header`, then each entry's line, in path order.
    package static func serialized(_ entries: [(path: String, entry: Entry)], header: String) -> Data {
        var text = header + "\n"
        for (path, entry) in entries.sorted(by: { $0.path < $1.path }) {
            text += "\(entry.sha256) \(entry.size) \(path)\n"
        }
        return Data(text.utf8)
    }

    /// Nil for anything that is not a manifest: the deploy then lists the bucket instead.
    package static func parse(_ data: Data) -> DeployManifest? {
        parse(data, header: header).map(DeployManifest.init(entries:))
    }

    /// The entries after `header`, one a line; nil when a line does not parse or names a key
    /// that is not a plain relative path. A manifest is read from the bucket, which others may
    /// write: a line naming `../other.txt` made a deploy delete an object outside its prefix.
    /// Lines are cut from the bytes (`ByteSearch.lines`).
    package static func parse(_ data: Data, header: String) -> [String: Entry]? {
        guard let lines = ByteSearch.lines(after: header, in: [UInt8](data)) else { return nil }
        let space = UInt8(ascii: " ")
        var entries: [String: Entry] = [:]
        for line in lines {
            let start = line.startIndex
            guard let digestEnd = line.firstIndex(of: space), digestEnd - start == 64,
                  line[start..<digestEnd].allSatisfy(Self.isHexDigit),
                  let sizeEnd = line[(digestEnd + 1)...].firstIndex(of: space),
                  let size = SnapshotLine.number(line[(digestEnd + 1)..<sizeEnd], radix: 10), size <= UInt64(Int.max),
                  case let path = String(decoding: line[(sizeEnd + 1)...], as: UTF8.self), Self.isPlainKey(path)
            else { return nil }
            entries[path] = Entry(sha256: String(decoding: line[start..<digestEnd], as: UTF8.self), size: Int(size))
        }
        return entries
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// A path of the output folder as a deploy names it: segments that are neither empty nor
    /// `.` or `..`, without a control character. No other key is ever uploaded or deleted.
    package static func isPlainKey(_ path: String) -> Bool {
        !path.isEmpty && !path.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }
}
