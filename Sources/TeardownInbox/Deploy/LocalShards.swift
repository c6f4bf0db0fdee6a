import Foundation
import TeardownBase
import TeardownContent

/// What the last deploy found in the output, kept shard by shard in the output's state folder
/// (`CacheLayout.OutputState.deployed`): each shard as the deploy manifest writes it, and an
/// index naming the headers the digests were recorded with. With the files builds changed
/// since (`OutputChanges`), the next deploy reads those and this, instead of listing every file
/// of the output and reading the digests of them all: at 10,000 parts that scan was most of a
/// deploy after one comment.
///
/// It holds only for an output that builds alone write: a file edited by hand in it is seen
/// by `deploy --verify`, which scans the whole output.
struct LocalShards {
    static let header = "teardown-deploy-local 1"

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

    /// The files noted since the record was written, when it is whole and of these headers.
    func pending(headers: ObjectHeaders) -> Set<String>? {
        guard FileSystem.exists(store), let text = FileManager.default.contents(atPath: index).map({ String(decoding: $0, as: UTF8.self) }),
              text == Self.indexText(headers) else { return nil }
        return OutputChanges.read(journal)
    }

    /// The record as the last deploy left it, with the files noted since; nil when there is
    /// none, it was made with other headers, a change is not known, or a shard is unreadable.
    func load(headers: ObjectHeaders) -> (Deployer.Scanned, changed: Set<String>)? {
        guard let changed = pending(headers: headers) else { return nil }
        var byShard = Array(repeating: [LocalOutputs.File](), count: DeployShards.count)
        var shards = [(data: Data, digest: String)?](repeating: nil, count: DeployShards.count)
        for number in 0..<DeployShards.count {
            guard let data = FileManager.default.contents(atPath: shard(number)) else { continue }
            guard let entries = DeployShards.parseShard(data) else { return nil }
            byShard[number] = entries.map { LocalOutputs.File(path: $0.key, size: $0.value.size, sha256: $0.value.sha256) }
            if !entries.isEmpty { shards[number] = (data, DeployShards.digest(of: data)) }
        }
        return ((byShard, shards), changed)
    }

    /// Writes the shards `changed` (every shard when nil) of `scanned`, then the index, and
    /// clears the noted changes. Losing it costs the next deploy a scan.
    func save(_ scanned: Deployer.Scanned, changed: Set<Int>?, headers: ObjectHeaders) {
        // Gone first: a record half rewritten is never read as whole.
        FileSystem.discard(index)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return
        }
        for number in changed.map(Array.init) ?? Array(0..<DeployShards.count) {
            if let data = scanned.shards[number]?.data {
                guard FileSystem.replaceFile(data, at: shard(number)) else { return }
            } else {
                FileSystem.discard(shard(number))
            }
        }
        FileSystem.discard(journal)
        _ = FileSystem.replaceFile(Data(Self.indexText(headers).utf8), at: index)
    }

    private static func indexText(_ headers: ObjectHeaders) -> String {
        "\(header)\nheaders \(SHA256Hex.of(Data(String(describing: headers).utf8)))\n"
    }
}
