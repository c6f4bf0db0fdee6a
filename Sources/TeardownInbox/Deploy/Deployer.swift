import Foundation
import TeardownBase
import TeardownContent

/// `teardown deploy`: uploads what changed in the output folder to an S3-compatible bucket.
///
/// The order keeps the bucket whole at every moment: assets first, then pages, then
/// deletions, then the deploy manifest. A deploy stopped at any point leaves pages whose
/// assets are there, and the next deploy finishes the work: until the manifest is written,
/// the bucket is compared with the previous one; refused deletions stay listed in it until
/// they are made.
public struct Deployer: Sendable {
    public struct Options: Sendable {
        public var location: S3Location
        public var credentials: S3Credentials
        public var dryRun = false
        /// More deletions than this are refused, all of them, and said so.
        public var maxDeletes = 256
        /// Requests in flight at once.
        public var concurrency = 8
        public var headers = ObjectHeaders()
        /// When every request must be done (`--timeout`); nil for no limit but each request's own.
        public var deadline: Date?
        /// Compares with a listing of the bucket, sizes and ETags, not with the deploy manifest:
        /// puts back what was changed or deleted behind deploy's back (`--verify`).
        public var verify = false
        /// The caller holds the output's build lock (a build deploying its pages between its two
        /// publishes): the deploy does not take it again.
        public var buildLockHeld = false

        public init(location: S3Location, credentials: S3Credentials) {
            self.location = location
            self.credentials = credentials
        }
    }

    public enum Event: Sendable {
        case planned(DeployPlan)
        case uploaded(DeployPlan.Step)
        case deleted(DeployPlan.Step)
        /// More deletions than `maxDeletes`: none was made.
        case deletionsRefused(count: Int, limit: Int)
    }

    public struct Report: Sendable {
        public let plan: DeployPlan
        public let uploaded: Int
        public let deleted: Int
    }

    public let output: String
    public let options: Options
    /// Where the digests of the output's files are kept between deploys.
    package let cache: String
    /// The output's build lock, which a deploy holds from its scan to its manifest.
    private let lock: String
    /// The output's state folder: its lock, and what the last deploy found in it.
    let state: CacheLayout.OutputState

    public init(output: String, cacheFolder: String, options: Options) {
        self.output = output
        self.options = options
        cache = CacheLayout(root: cacheFolder).deployDigests
        // Named as the build names it, so both take the same lock.
        state = CacheLayout(root: cacheFolder).output(URL(fileURLWithPath: output).standardizedFileURL.path)
        lock = state.lock
    }

    /// Deploys.
    public func run(onEvent: @escaping @Sendable (Event) -> Void = { _ in }) throws(StoreFailure) -> Report {
        let store = {
            var store = S3Store(location: options.location, credentials: options.credentials)
            store.deadline = options.deadline
            return store
        }()
        let prefix = options.location.prefix
        guard let session = Curl.Session() else { throw StoreFailure("libcurl could not start") }
        // Asked before anything is read or planned: wrong keys or a dead endpoint stop here.
        let manifestKey = prefix + DeployManifest.objectName
        let stored = try store.get(manifestKey, session: session)
        // Held until the manifest is written: a build waits for the deploy, so the deploy sends
        // one tree and records what that tree holds, never a page a build swapped in meanwhile.
        let held = options.buildLockHeld ? nil : try holdBuildLock()
        defer { if let held { FileSystem.unlock(held) } }
        var (local, touched) = try scan()
        var remote = try compare(local, stored: stored, store: store, session: session, manifestKey: manifestKey)
        // The shards compared are read from the record; one that cannot be is scanned for.
        if !local.load(remote.compared) {
            (local, touched) = (try scanLocal(), nil)
            remote = try compare(local, stored: stored, store: store, session: session, manifestKey: manifestKey)
        }
        let unchangedShards = (0..<DeployShards.count).filter { !remote.compared.contains($0) }
        let plan = DeployPlan.make(local: remote.compared.sorted().flatMap { local.files(of: $0) }, manifest: remote.manifest,
                                   // A local file gone since the scan is compared as absent; it is deleted or uploaded by the next deploy.
                                   listing: remote.listing, stored: { try? body(of: $0) },
                                   unchangedElsewhere: unchangedShards.reduce(0) { $0 + local.counts[$1] })
        onEvent(.planned(plan))
        guard !options.dryRun else { return Report(plan: plan, uploaded: 0, deleted: 0) }
        try upload(plan, scanned: local, store: store, onEvent: onEvent)
        // The manifest is written after whatever deleting there is. A deploy stopped during the
        // deletions leaves the previous manifest, so the next one compares with that, uploads
        // the few changed files again and repeats the deletions. Refused deletions stay listed,
        // so that the next deploy tries them again.
        let refused = plan.deletions.count > options.maxDeletes
        var kept: [String: DeployManifest.Entry] = [:]
        if refused {
            onEvent(.deletionsRefused(count: plan.deletions.count, limit: options.maxDeletes))
            for step in plan.deletions {
                kept[step.path] = remote.manifest?.entries[step.path]
                    ?? DeployManifest.Entry(sha256: String(repeating: "0", count: 64), size: step.size)
            }
        } else if !plan.deletions.isEmpty {
            try Self.inParallel(plan.deletions, workers: options.concurrency) { step, session throws(StoreFailure) in
                try store.delete(prefix + step.path, session: session)
                onEvent(.deleted(step))
            }
        }
        try writeManifest(compared: remote.compared, local: local, kept: kept, index: remote.index, key: manifestKey,
                          store: store, session: session)
        remember(local, touched: touched)
        return Report(plan: plan, uploaded: plan.uploads.count, deleted: refused ? 0 : plan.deletions.count)
    }

    /// What the bucket holds, for the shards where it may differ from the output folder.
    private struct Remote {
        var index: DeployShards?
        var compared: Set<Int>
        var manifest: DeployManifest?
        var listing: [String: S3Store.Listed]
    }

    private func compare(_ local: ScannedOutput, stored: Data?,
                         store: S3Store, session: Curl.Session, manifestKey: String) throws(StoreFailure) -> Remote {
        let prefix = options.location.prefix
        let index = options.verify ? nil : stored.flatMap(DeployShards.parse)
        var entries: [String: DeployManifest.Entry]?
        var compared = Set(0..<DeployShards.count)
        if let index {
            compared = Set((0..<DeployShards.count).filter { index.digests[$0] != local.digests[$0] })
            entries = try fetchShards(compared.filter { index.digests[$0] != nil }, store: store)
        } else if !options.verify {
            entries = stored.flatMap(DeployManifest.parse)?.entries
        }
        var listing: [String: S3Store.Listed] = [:]
        if entries == nil {
            // Compared by listing, every shard is: the listing shows the whole bucket.
            compared = Set(0..<DeployShards.count)
            // An object whose name is not a plain path below the prefix is not the site's: a
            // deploy never wrote it, and neither compares nor deletes it.
            for object in try store.list(prefix: prefix, session: session)
            where object.key != manifestKey && !object.key.hasPrefix(prefix + DeployShards.folder)
                && DeployManifest.isPlainKey(String(object.key.dropFirst(prefix.count))) {
                listing[String(object.key.dropFirst(prefix.count))] = object
            }
        }
        return Remote(index: index, compared: compared, manifest: entries.map(DeployManifest.init(entries:)), listing: listing)
    }

    private func holdBuildLock() throws(StoreFailure) -> Int32 {
        do {
            try FileManager.default.createDirectory(atPath: (lock as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return try FileSystem.lock(lock)
        } catch {
            throw StoreFailure("cannot lock \(lock): \(ErrorText.text(error))")
        }
    }

    /// Uploads the plan's files, pages last: a page goes up after the files it points at. Each
    /// file's bytes are checked against the digest the scan found (`scanned`, by manifest shard),
    /// which the manifest records: a file changed by hand since the scan stops the deploy before
    /// the manifest is written.
    private func upload(_ plan: DeployPlan, scanned: ScannedOutput, store: S3Store,
                        onEvent: @escaping @Sendable (Event) -> Void) throws(StoreFailure) {
        let prefix = options.location.prefix, headers = options.headers
        let split = plan.uploads.firstIndex { ObjectHeaders.isPage($0.path) } ?? plan.uploads.count
        for wave in [plan.uploads[..<split], plan.uploads[split...]] where !wave.isEmpty {
            try Self.inParallel(Array(wave), workers: options.concurrency) { step, session throws(StoreFailure) in
                let encoding = headers.contentEncoding(of: step.path)
                let (raw, body) = try bytes(of: step.path)
                let sent = headers.recorded(LocalOutputs.File(path: step.path, size: raw.count, sha256: SHA256Hex.of(raw)))
                guard sent.sha256 == scanned.files(of: DeployShards.shard(of: step.path)).first(where: { $0.path == step.path })?.sha256 else {
                    throw StoreFailure("\(output)/\(step.path) changed while it was deployed; run the deploy again")
                }
                try store.put(prefix + step.path, body: body, headers: [
                    "Content-Type: \(ObjectHeaders.contentType(of: step.path))",
                    "Cache-Control: \(headers.cacheControl(of: step.path))",
                ] + (encoding.map { ["Content-Encoding: \($0)"] } ?? []), session: session)
                onEvent(.uploaded(step))
            }
        }
    }

    /// The bytes `path` is stored as: the file, compressed when its kind is (`ObjectHeaders`).
    private func body(of path: String) throws(StoreFailure) -> Data { try bytes(of: path).stored }

    /// The file's bytes, and the bytes it is stored as.
    private func bytes(of path: String) throws(StoreFailure) -> (file: Data, stored: Data) {
        // The reason is told in our words, with the file's name.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: output + "/" + path), options: .alwaysMapped) else {
            throw StoreFailure("\(output)/\(path) cannot be read")
        }
        guard options.headers.contentEncoding(of: path) != nil else { return (data, data) }
        guard let compressed = Gzip.compress(data) else { throw StoreFailure("\(output)/\(path) cannot be compressed: out of memory") }
        return (data, compressed)
    }

    /// The entries of the stored shards `shards`, fetched on `concurrency` connections; nil
    /// when one is missing or damaged, so that the bucket is listed instead.
    private func fetchShards(_ shards: Set<Int>, store: S3Store) throws(StoreFailure) -> [String: DeployManifest.Entry]? {
        let prefix = options.location.prefix
        let fetched = Locked([String: DeployManifest.Entry]()), damaged = Locked(false)
        try Self.inParallel(Array(shards), workers: options.concurrency) { shard, session throws(StoreFailure) in
            let key = prefix + DeployShards.folder + DeployShards.name(of: shard)
            guard let entries = try store.get(key, session: session).flatMap(DeployShards.parseShard),
                  entries.keys.allSatisfy({ DeployShards.shard(of: $0) == shard })
            else { return damaged.withLock { $0 = true } }
            fetched.withLock { $0.merge(entries) { first, _ in first } }
        }
        return damaged.withLock { $0 } ? nil : fetched.withLock { $0 }
    }

    /// Writes the compared shards that differ from what the index says is stored, then the
    /// index; a shard left without entries is deleted after the index stops naming it. A
    /// bucket with the one-object manifest of earlier versions gets every shard, then the index over it.
    @discardableResult
    private func writeManifest(compared: Set<Int>, local: ScannedOutput, kept: [String: DeployManifest.Entry],
                               index: DeployShards?, key: String, store: S3Store, session: Curl.Session) throws(StoreFailure) -> DeployShards {
        var keptByShard: [Int: [(String, DeployManifest.Entry)]] = [:]
        for (path, entry) in kept { keptByShard[DeployShards.shard(of: path), default: []].append((path, entry)) }
        var digests = index?.digests ?? [:]
        var writes: [(shard: Int, data: Data)] = [], emptied: [Int] = []
        for shard in compared.sorted() {
            let shardData: (data: Data, digest: String)?
            if let extra = keptByShard[shard] {
                let data = DeployShards.serialized(local.files(of: shard).map { ($0.path, DeployManifest.Entry(sha256: $0.sha256, size: $0.size)) } + extra)
                shardData = (data, DeployShards.digest(of: data))
            } else {
                shardData = local.serialized[shard].flatMap { data in local.digests[shard].map { (data, $0) } }
            }
            guard let shardData else {
                if digests.removeValue(forKey: shard) != nil { emptied.append(shard) }
                continue
            }
            if index == nil || digests[shard] != shardData.digest { writes.append((shard, shardData.data)) }
            digests[shard] = shardData.digest
        }
        let prefix = options.location.prefix
        try Self.inParallel(writes, workers: options.concurrency) { write, session throws(StoreFailure) in
            try store.put(prefix + DeployShards.folder + DeployShards.name(of: write.shard), body: write.data,
                          headers: ["Content-Type: text/plain; charset=utf-8", "Cache-Control: no-store"], session: session)
        }
        let written = DeployShards(digests: digests)
        if written != index {
            try store.put(key, body: written.serialized(),
                          headers: ["Content-Type: text/plain; charset=utf-8", "Cache-Control: no-store"], session: session)
        }
        try Self.inParallel(emptied, workers: options.concurrency) { shard, session throws(StoreFailure) in
            try store.delete(prefix + DeployShards.folder + DeployShards.name(of: shard), session: session)
        }
        return written
    }

    /// Runs `work` on every item from `workers` threads, each with a connection of its own;
    /// the first failure stops the others taking new items and is thrown.
    package static func inParallel<Item: Sendable>(_ items: [Item], workers: Int,
                                           _ work: @escaping @Sendable (Item, Curl.Session) throws(StoreFailure) -> Void) throws(StoreFailure) {
        let next = Locked((index: 0, failure: StoreFailure?.none))
        let group = DispatchGroup()
        for _ in 0..<max(1, min(workers, items.count)) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                guard let session = Curl.Session() else {
                    next.withLock { $0.failure = $0.failure ?? StoreFailure("libcurl could not start") }
                    return
                }
                while let index = next.withLock({ state -> Int? in
                    guard state.failure == nil, state.index < items.count else { return nil }
                    state.index += 1
                    return state.index - 1
                }) {
                    do throws(StoreFailure) {
                        try work(items[index], session)
                    } catch {
                        next.withLock { $0.failure = $0.failure ?? error }
                    }
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        if let failure = next.withLock({ $0.failure }) { throw failure }
    }
}

extension Deployer {
    /// site.yaml's `deploy:` section, with the problems found in site.yaml.
    public static func settings(siteRoot: String) -> (settings: DeploySettings, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let config = SiteConfigLoader.load(SourceFile(root: siteRoot, relative: "content/site.yaml"), diagnostics: &diagnostics)
        return (config.deploy, diagnostics)
    }
}
