import Foundation

/// An inbox in an S3-compatible bucket, written by any number of `teardown intake` processes.
/// It has the folder inbox's files (`<id>.comment.md`, `<id>.jpg`, ...) under the prefix, and
/// instead of one manifest.json that every writer would rewrite, one `<id>.manifest.json` per
/// submission, written after the submission's files, in the manifest.json format.
///
/// Ids start with their UTC time (`20261123-101500-…`), so the listing is in time order. Sync
/// remembers the newest id it saw and lists only what comes after a quarter of an hour before
/// it: a writer whose submission took long to arrive, or whose clock is a little behind, is not
/// skipped, and the ledger drops what was filed already. Submissions listed but not settled (a
/// rejected photo whose part does not exist yet, say) are remembered and read again.
public struct BucketInbox: InboxSource {
    let store: S3Store
    /// Where sync keeps how far it got.
    let stateFile: String
    public var name: String { store.location.description }
    public var requiresDigests: Bool { true }
    static let manifestSuffix = ".manifest.json"
    /// How far before the newest id seen the next listing starts.
    static let overlap: TimeInterval = 15 * 60

    public init(location: S3Location, credentials: S3Credentials, cacheFolder: String) {
        store = S3Store(location: location, credentials: credentials)
        let key = SHA256Hex.of(Data("\(location.endpoint)/\(location.bucket)/\(location.prefix)".utf8)).prefix(16)
        stateFile = cacheFolder + "/sync/bucket-\(key)"
    }

    struct State: Codable {
        var newest: String?
        var unsettled: [String] = []
    }

    public func submissions() throws(InboxFailure) -> [InboxSubmission] {
        let session = try Self.session(for: name)
        let state = readState()
        let prefix = store.location.prefix
        let startAfter = state.newest.flatMap(Self.stamp(before:)).map { prefix + $0 }
        var ids = Set(state.unsettled)
        do throws(StoreFailure) {
            for object in try store.list(asking: prefix, startAfter: startAfter, session: session)
            where object.key.hasSuffix(Self.manifestSuffix) {
                ids.insert(String(object.key.dropFirst(prefix.count).dropLast(Self.manifestSuffix.count)))
            }
        } catch {
            throw InboxFailure(source: name, reason: error.description)
        }
        var found: [InboxSubmission] = []
        for id in ids.sorted() where Inbox.isValidID(id) {
            let data: Data?
            do throws(StoreFailure) {
                data = try store.get(prefix + id + Self.manifestSuffix, session: session)
            } catch {
                throw InboxFailure(source: name, reason: error.description)
            }
            guard let data else { continue }  // an unsettled id taken away since
            found += try Inbox.parseManifest(data, source: name + id + Self.manifestSuffix).filter { $0.id == id }
        }
        return found
    }

    public func fetch(_ file: String, maxBytes: Int) throws(InboxFailure) -> Data {
        let session = try Self.session(for: name)
        let data: Data?
        do throws(StoreFailure) {
            data = try store.get(store.location.prefix + file, session: session)
        } catch {
            throw InboxFailure(source: name + file, reason: error.description)
        }
        guard let data else { throw InboxFailure(source: name + file, reason: "not in the bucket") }
        guard data.count <= maxBytes else { throw InboxFailure(source: name + file, reason: "larger than \(maxBytes) bytes") }
        return data
    }

    public func synced(listed: [InboxSubmission], settled: Set<String>) {
        var state = readState()
        let ids = listed.map(\.id)
        if let newest = ids.max(), newest > (state.newest ?? "") { state.newest = newest }
        state.unsettled = Array(Set(state.unsettled).union(ids).subtracting(settled)).sorted()
        if let data = try? JSONEncoder().encode(state) {
            try? FileManager.default.createDirectory(atPath: (stateFile as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            FileSystem.replaceFile(data, at: stateFile)
        }
    }

    private func readState() -> State {
        FileManager.default.contents(atPath: stateFile).flatMap { try? JSONDecoder().decode(State.self, from: $0) } ?? State()
    }

    /// The time part of an id, a quarter of an hour earlier: `20261123-100000`.
    static func stamp(before id: String) -> String? {
        let parts = id.split(separator: "-")
        guard parts.count >= 2 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let text = parts[0] + parts[1]
        guard text.count == 14, let number = Int(text) else { return nil }
        var components = DateComponents()
        components.year = number / 10_000_000_000
        components.month = number / 100_000_000 % 100
        components.day = number / 1_000_000 % 100
        components.hour = number / 10_000 % 100
        components.minute = number / 100 % 100
        components.second = number % 100
        guard let date = calendar.date(from: components) else { return nil }
        return IntakeID.stamp(date.addingTimeInterval(-overlap))
    }

    private static func session(for name: String) throws(InboxFailure) -> Curl.Session {
        guard let session = Curl.Session() else { throw InboxFailure(source: name, reason: "libcurl could not start") }
        return session
    }
}
