import Foundation
import TeardownBase
import TeardownContent

/// What the last deploy found in the output, kept shard by shard in the output's state folder
/// (`CacheLayout.OutputState.deployed`): each shard as the deploy manifest writes it, and an
/// index naming the headers the digests were recorded with and each shard's digest and count.
/// With the files builds changed since (`OutputChanges`), the next deploy reads those, the
/// index and the shards they fall in, instead of listing every file of the output and reading
/// the digests of them all: that scan was most of a deploy after one comment (Benchmarks/README.md, "Deploys").
/// A resident `sync --follow --deploy` deploys from it too, so it holds none of it in memory.
///
/// It holds only for an output that builds alone write: a file edited by hand in it is seen
/// by `deploy --verify`, which scans the whole output.
struct LocalShards {
    static let header = "teardown-deploy-local 2"

    let folder: String
    /// The output files builds changed since the record was written (`OutputChanges`).
    let journal: String
    private let index: String
    /// The output's build store: an output no build writes (a folder deployed as it is) has
    /// none, and no one notes its changes, so it is scanned every time.
    private let store: String

    init(_ state: CacheLayout.OutputState) {
        folder = state.deployed
        journal = state.outputChanges
        index = state.deployedIndex
        store = state.store
    }

    private func shard(_ number: Int) -> String { folder + "/" + DeployShards.name(of: number) }

    /// The record as the last deploy left it: each shard's digest and count, its shards read
    /// when needed (`ScannedOutput.load`), and the files noted since. Nil when there is none,
    /// it was made with other headers, or a change is not known.
    func load(headers: ObjectHeaders) -> (ScannedOutput, changed: Set<String>)? {
        guard FileSystem.exists(store), let data = FileManager.default.contents(atPath: index) else { return nil }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n")[...]
        guard lines.popFirst() == Substring(Self.header), lines.popFirst() == Substring(Self.headersLine(headers)),
              let changed = OutputChanges.read(journal)
        else { return nil }
        var digests = [String?](repeating: nil, count: DeployShards.count), counts = Array(repeating: 0, count: DeployShards.count)
        for line in lines {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let number = Int(fields[0], radix: 16), number < DeployShards.count,
                  let count = Int(fields[2]), count > 0 else { return nil }
            digests[number] = String(fields[1])
            counts[number] = count
        }
        let scanned = ScannedOutput(digests: digests, counts: counts) { number in
            FileManager.default.contents(atPath: shard(number))
        }
        return (scanned, changed)
    }

    /// Writes the shards `changed` (every shard when nil) of `scanned`, then the index, and
    /// clears the noted changes. Losing it costs the next deploy a scan.
    func save(_ scanned: ScannedOutput, changed: Set<Int>?, headers: ObjectHeaders) {
        // Gone first: a record half rewritten is never read as whole.
        FileSystem.discard(index)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return
        }
        for number in changed.map(Array.init) ?? Array(0..<DeployShards.count) {
            if let data = scanned.serialized[number] {
                guard FileSystem.replaceFile(data, at: shard(number)) else { return }
            } else {
                FileSystem.discard(shard(number))
            }
        }
        FileSystem.discard(journal)
        var text = Self.header + "\n" + Self.headersLine(headers) + "\n"
        for (number, digest) in scanned.digests.enumerated() {
            if let digest { text += "\(DeployShards.name(of: number)) \(digest) \(scanned.counts[number])\n" }
        }
        _ = FileSystem.replaceFile(Data(text.utf8), at: index)
    }

    private static func headersLine(_ headers: ObjectHeaders) -> String {
        "headers \(SHA256Hex.of(Data(String(describing: headers).utf8)))"
    }
}
