import Foundation

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
    let cache: String

    public init(output: String, cacheFolder: String, options: Options) {
        self.output = output
        self.options = options
        cache = cacheFolder + "/deploy-digests"
    }

    public func run(onEvent: @escaping @Sendable (Event) -> Void = { _ in }) throws(StoreFailure) -> Report {
        let store = S3Store(location: options.location, credentials: options.credentials)
        let prefix = options.location.prefix
        guard let session = Curl.Session() else { throw StoreFailure("libcurl could not start") }
        // Asked before anything is read or planned: wrong keys or a dead endpoint stop here.
        let manifestKey = prefix + DeployManifest.objectName
        let manifest = try store.get(manifestKey, session: session).flatMap(DeployManifest.parse)
        do {
            try FileManager.default.createDirectory(atPath: (cache as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw StoreFailure("\((cache as NSString).deletingLastPathComponent) cannot be created: \(error.localizedDescription)")
        }
        let local = try LocalOutputs.scan(output, cache: cache)
        var listing: [String: S3Store.Listed] = [:]
        if manifest == nil {
            for object in try store.list(prefix: prefix, session: session) where object.key != manifestKey {
                listing[String(object.key.dropFirst(prefix.count))] = object
            }
        }
        let plan = DeployPlan.make(local: local, manifest: manifest, listing: listing, root: output)
        onEvent(.planned(plan))
        guard !options.dryRun else { return Report(plan: plan, uploaded: 0, deleted: 0) }

        let headers = options.headers
        let split = plan.uploads.firstIndex { ObjectHeaders.isPage($0.path) } ?? plan.uploads.count
        for wave in [plan.uploads[..<split], plan.uploads[split...]] where !wave.isEmpty {
            try Self.inParallel(Array(wave), workers: options.concurrency) { step, session throws(StoreFailure) in
                guard let body = try? Data(contentsOf: URL(fileURLWithPath: output + "/" + step.path), options: .alwaysMapped) else {
                    throw StoreFailure("\(output)/\(step.path) cannot be read")
                }
                try store.put(prefix + step.path, body: body, headers: [
                    "Content-Type: \(ObjectHeaders.contentType(of: step.path))",
                    "Cache-Control: \(headers.cacheControl(of: step.path))",
                ], session: session)
                onEvent(.uploaded(step))
            }
        }

        // The manifest is written once, after whatever deleting there is. A deploy stopped
        // during the deletions leaves the previous manifest, so the next one compares with that,
        // uploads the few changed files again and repeats the deletions. Refused deletions stay
        // listed, so that the next deploy tries them again.
        var entries = Dictionary(uniqueKeysWithValues: local.map { ($0.path, DeployManifest.Entry(sha256: $0.sha256, size: $0.size)) })
        let refused = plan.deletions.count > options.maxDeletes
        if refused {
            onEvent(.deletionsRefused(count: plan.deletions.count, limit: options.maxDeletes))
            for step in plan.deletions {
                entries[step.path] = manifest?.entries[step.path]
                    ?? DeployManifest.Entry(sha256: String(repeating: "0", count: 64), size: step.size)
            }
        } else if !plan.deletions.isEmpty {
            try Self.inParallel(plan.deletions, workers: options.concurrency) { step, session throws(StoreFailure) in
                try store.delete(prefix + step.path, session: session)
                onEvent(.deleted(step))
            }
        }
        let written = DeployManifest(entries: entries)
        if written != manifest { try putManifest(written, key: manifestKey, store: store, session: session) }
        return Report(plan: plan, uploaded: plan.uploads.count, deleted: refused ? 0 : plan.deletions.count)
    }

    private func putManifest(_ manifest: DeployManifest, key: String, store: S3Store, session: Curl.Session) throws(StoreFailure) {
        try store.put(key, body: manifest.serialized(),
                      headers: ["Content-Type: text/plain; charset=utf-8", "Cache-Control: no-store"], session: session)
    }

    /// Runs `work` on every item from `workers` threads, each with a connection of its own;
    /// the first failure stops the others taking new items and is thrown.
    static func inParallel<Item: Sendable>(_ items: [Item], workers: Int,
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
