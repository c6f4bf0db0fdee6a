import Foundation
import TeardownBase
import TeardownContent

extension Deployer {
    /// What a deploy learnt of the output and of the bucket, kept by a process that deploys again
    /// and again (`sync --follow --deploy`). Told which files its builds changed since, the next
    /// deploy hashes those alone, instead of listing every file of the output and reading the
    /// digests of them all: at 10,000 parts that scan was most of a deploy after one comment.
    /// It is trusted only while the bucket's manifest is the one it wrote last.
    public final class Memory: @unchecked Sendable {
        private let lock = NSLock()
        private var scanned: Scanned?
        private var index: DeployShards?
        /// The headers the scan's digests were recorded with: other settings record others.
        private var headers: ObjectHeaders?
        /// Output files changed since the last deploy; nil when that is not known.
        private var changed: Set<String>? = []

        public init() {}

        /// Notes output files a build wrote or removed (`SiteBuilder.Report.changedOutputs`);
        /// nil when they are not known, so that the next deploy scans the whole output.
        public func note(_ paths: [String]?) {
            lock.withLock {
                if let paths { changed?.formUnion(paths) } else { changed = nil }
            }
        }

        /// The last scan brought up to date, when the bucket holds what the last deploy wrote.
        fileprivate func recall(stored: DeployShards?, headers: ObjectHeaders) -> (Scanned, Set<String>)? {
            lock.withLock {
                guard let scanned, let changed, let index, index == stored, headers == self.headers else { return nil }
                return (scanned, changed)
            }
        }

        fileprivate func remember(_ scanned: Scanned, index: DeployShards, headers: ObjectHeaders, seen: Set<String>?) {
            lock.withLock {
                self.scanned = scanned
                self.index = index
                self.headers = headers
                // Changes noted during the deploy are for the next one.
                if let seen, let changed { self.changed = changed.subtracting(seen) } else if seen == nil { changed = [] }
            }
        }
    }

    /// The scan of the output: the memory's or the recorded one (`LocalShards`), with the files
    /// changed since read again; or a new one. `seen` is the changes taken from the memory,
    /// `touched` the shards that differ from the record (nil: every shard).
    func scan(memory: Memory?, stored: Data?) throws(StoreFailure) -> (Scanned, seen: Set<String>?, touched: Set<Int>?) {
        if let memory, let (scanned, changed) = memory.recall(stored: stored.flatMap(DeployShards.parse), headers: options.headers) {
            let (updated, _) = applying(changed, to: scanned)
            // The record differs from the memory where builds changed files since it was written:
            // this process's (the memory's changes) and any other's (the record's journal).
            let pending = LocalShards(state).pending(headers: options.headers)
            return (updated, changed, pending.map { Set($0.union(changed).map(DeployShards.shard(of:))) })
        }
        if !options.verify, let (scanned, changed) = LocalShards(state).load(headers: options.headers) {
            let (updated, touched) = applying(changed, to: scanned)
            return (updated, nil, touched)
        }
        return (try scanLocal(), nil, nil)
    }

    /// `scanned` with the files at `changed` read again, and the shards that changed.
    private func applying(_ changed: Set<String>, to scanned: Scanned) -> (Scanned, touched: Set<Int>) {
        var byShard = scanned.byShard, shards = scanned.shards
        let headers = options.headers, output = output
        // Hidden files are never deployed (the scan skips them too).
        let paths = changed.filter { !$0.hasPrefix(".") && !$0.contains("/.") }.sorted()
        let files = ParallelMap.map(paths) { path -> LocalOutputs.File? in
            // A file that cannot be read is gone from the output: deleted from the bucket.
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: output + "/" + path), options: .alwaysMapped) else { return nil }
            return headers.recorded(LocalOutputs.File(path: path, size: data.count, sha256: SHA256Hex.of(data)))
        }
        var touched = Set<Int>()
        for (path, file) in zip(paths, files) {
            let shard = DeployShards.shard(of: path)
            touched.insert(shard)
            byShard[shard].removeAll { $0.path == path }
            if let file { byShard[shard].append(file) }
        }
        for shard in touched {
            let entries = byShard[shard].map { ($0.path, DeployManifest.Entry(sha256: $0.sha256, size: $0.size)) }
            let data = DeployShards.serialized(entries)
            shards[shard] = entries.isEmpty ? nil : (data, DeployShards.digest(of: data))
        }
        return ((byShard, shards), touched)
    }

    /// After a deploy that wrote its manifest: the memory and the record learn its scan.
    func remember(_ scanned: Scanned, index: DeployShards, seen: Set<String>?, touched: Set<Int>?, in memory: Memory?) {
        memory?.remember(scanned, index: index, headers: options.headers, seen: seen)
        LocalShards(state).save(scanned, changed: touched, headers: options.headers)
    }
}
