import Foundation
import TeardownBase

/// The output folder's files as a deploy knows them, by manifest shard (`DeployShards`): every
/// shard's digest and file count, and the files of the shards it has read. A scan of the whole
/// output reads them all. The last deploy's record (`LocalShards`) gives the digests and counts
/// alone, and a shard is read from it only when the deploy must look inside: one that builds
/// changed since, or one the bucket holds otherwise. A deploy after one comment reads a few
/// shards of 256, not a line for every file of the site.
struct ScannedOutput: Sendable {
    /// Each shard's digest (`DeployShards.digest(of:)`), nil for a shard with no file.
    private(set) var digests: [String?]
    private(set) var counts: [Int]
    /// The files of the shards read, by shard, and each one's stored form.
    private var files: [Int: [LocalOutputs.File]] = [:]
    private(set) var serialized: [Int: Data] = [:]
    /// Reads a shard of the record; nil when it is gone or damaged.
    private let read: (@Sendable (Int) -> Data?)?

    /// Every file of the output, as a scan found them.
    init(scanned: [LocalOutputs.File]) {
        var byShard = Array(repeating: [LocalOutputs.File](), count: DeployShards.count)
        for file in scanned { byShard[DeployShards.shard(of: file.path)].append(file) }
        let made = ParallelMap.map(byShard) { files -> (data: Data, digest: String)? in
            guard !files.isEmpty else { return nil }
            let data = Self.serialize(files)
            return (data, DeployShards.digest(of: data))
        }
        digests = made.map { $0?.digest }
        counts = byShard.map(\.count)
        read = nil
        for (shard, shardFiles) in byShard.enumerated() where !shardFiles.isEmpty {
            files[shard] = shardFiles
            serialized[shard] = made[shard]?.data
        }
    }

    /// The record's digests and counts; its shards are read by `read` when needed.
    init(digests: [String?], counts: [Int], read: @escaping @Sendable (Int) -> Data?) {
        self.digests = digests
        self.counts = counts
        self.read = read
    }

    /// The files of a shard that was read (`load`).
    func files(of shard: Int) -> [LocalOutputs.File] { files[shard] ?? [] }

    /// Reads `shards` from the record where not read yet; false when one is missing, damaged
    /// or not what the record's index says, so that the caller scans the whole output.
    mutating func load(_ shards: some Sequence<Int>) -> Bool {
        for shard in shards where files[shard] == nil && digests[shard] != nil {
            guard let data = read?(shard), DeployShards.digest(of: data) == digests[shard],
                  let entries = DeployShards.parseShard(data), entries.count == counts[shard]
            else { return false }
            files[shard] = entries.map { LocalOutputs.File(path: $0.key, size: $0.value.size, sha256: $0.value.sha256) }
            serialized[shard] = data
        }
        return true
    }

    /// Puts the files found at `changed` paths (nil: gone) in place, their shards read first;
    /// the shards that changed, or nil when one could not be read.
    mutating func replace(_ changed: [(path: String, file: LocalOutputs.File?)]) -> Set<Int>? {
        let touched = Set(changed.map { DeployShards.shard(of: $0.path) })
        guard load(touched) else { return nil }
        for (path, file) in changed {
            let shard = DeployShards.shard(of: path)
            files[shard, default: []].removeAll { $0.path == path }
            if let file { files[shard, default: []].append(file) }
        }
        for shard in touched {
            let shardFiles = files[shard] ?? []
            counts[shard] = shardFiles.count
            if shardFiles.isEmpty {
                digests[shard] = nil
                serialized[shard] = nil
            } else {
                let data = Self.serialize(shardFiles)
                digests[shard] = DeployShards.digest(of: data)
                serialized[shard] = data
            }
        }
        return touched
    }

    private static func serialize(_ files: [LocalOutputs.File]) -> Data {
        DeployShards.serialized(files.map { ($0.path, DeployManifest.Entry(sha256: $0.sha256, size: $0.size)) })
    }
}
