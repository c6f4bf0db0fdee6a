import Foundation
import TeardownBase

/// The deploy manifest in shards, so that a deploy after one comment reads and writes a few
/// small objects, not a line for every file of the site each way.
///
/// Each path belongs to one of `count` shards by a hash of its bytes; a shard is stored at
/// `.teardown-deploy.d/<xx>` with its paths' lines, and the index at `.teardown-deploy` holds
/// each stored shard's digest. A deploy makes the same shards of the output folder: a shard
/// with the digest the index holds is as the bucket has it, and only the others are fetched
/// and compared line by line. Shards are written before the index, so a deploy stopped
/// between them leaves an index that only sends the next deploy to look at those shards again.
package struct DeployShards: Sendable, Equatable {
    package static let header = "teardown-deploy 2"
    package static let shardHeader = "teardown-deploy-shard 1"
    package static let folder = DeployManifest.objectName + ".d/"
    package static let count = 256

    /// The digest of each stored shard (`digest(of:)`), by number; a shard without a path is not stored.
    package var digests: [Int: String]

    /// The first half of a shard's SHA-256, in hex: the index is read on every deploy, and half
    /// the digest keeps it to a few kilobytes while still telling any two shards apart.
    package static func digest(of data: Data) -> String { String(SHA256Hex.of(data).prefix(32)) }

    /// The shard of a path: FNV-1a of its bytes, which every version must keep.
    package static func shard(of path: String) -> Int {
        Int(FNV1a.hash(path) % UInt32(count))
    }

    package static func name(of shard: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[shard / 16], digits[shard % 16]])
    }

    /// A shard's stored form: its header, then its entries in path order.
    package static func serialized(_ entries: [(path: String, entry: DeployManifest.Entry)]) -> Data {
        DeployManifest.serialized(entries, header: shardHeader)
    }

    package static func parseShard(_ data: Data) -> [String: DeployManifest.Entry]? {
        DeployManifest.parse(data, header: shardHeader)
    }

    package func serialized() -> Data {
        var text = Self.header + "\n"
        for (shard, digest) in digests.sorted(by: { $0.key < $1.key }) { text += "\(Self.name(of: shard)) \(digest)\n" }
        return Data(text.utf8)
    }

    /// Nil for anything that is not an index of shards.
    package static func parse(_ data: Data) -> DeployShards? {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n")[...]
        guard lines.popFirst() == Substring(header) else { return nil }
        var digests: [Int: String] = [:]
        for line in lines {
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[0].utf8.count == 2, let shard = Int(fields[0], radix: 16),
                  fields[1].utf8.count == 32, fields[1].allSatisfy(\.isHexDigit), digests[shard] == nil
            else { return nil }
            digests[shard] = String(fields[1])
        }
        return DeployShards(digests: digests)
    }
}
