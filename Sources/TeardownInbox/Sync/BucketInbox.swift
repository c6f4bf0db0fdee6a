import Foundation
import TeardownBase

/// An inbox in an S3-compatible bucket, written by any number of `teardown intake` processes.
/// It has the folder inbox's files (`<id>.comment.md`, `<id>.jpg`, ...) under the prefix, and
/// instead of one manifest.json that every writer would rewrite, one manifest object per
/// submission, written after the submission's files, in the manifest.json format:
/// `<id>.manifest.json`, or `<time>-approved-<id>.manifest.json` for one a moderator approved
/// (see `BucketShelf`). Held submissions wait under `.pending-`, which sync never lists.
///
/// Manifest names start with a UTC time (`20261123-101500-…`), so the listing is in time
/// order. Sync remembers the newest it saw and lists only what comes after a quarter of an
/// hour before it: a writer whose submission took long to arrive, or whose clock is a little
/// behind, is not skipped, and the ledger drops what was filed already. Manifests listed but
/// not settled (a rejected photo whose part does not exist yet, say) are remembered and read
/// again.
///
/// A name is only the writer's word for when it wrote: a manifest that lands later than the
/// overlap (a store retrying its uploads for minutes, an intake host whose clock is behind)
/// sorts before the mark. So once an hour a sync lists the whole prefix and reads every manifest
/// the store wrote (by its own clock, `LastModified`) since the newest the last such listing
/// saw, less the overlap: no acknowledged submission is left behind for good.
public struct BucketInbox: InboxSource {
    package let store: S3Store
    /// Where sync keeps how far it got.
    package let stateFile: String
    /// Which manifest each listed submission came from, for `synced`.
    private let listedManifests = Locked<[String: String]>([:])
    /// When the manifests were listed, as a manifest name's time: the furthest the mark may go.
    private let listedAt = Locked<String?>(nil)
    public var name: String { store.location.description }
    public var requiresDigests: Bool { true }
    package static let manifestSuffix = ".manifest.json"
    /// The prefix of held submissions' objects, which sync never lists.
    package static let held = ".pending-"
    /// How far before the newest id seen the next listing starts.
    package static let overlap: TimeInterval = 15 * 60
    /// How often a sync lists the whole prefix (see above).
    package static let sweepInterval: TimeInterval = 60 * 60
    /// This sync's whole listing, when it made one: when, and the newest write it saw.
    private let swept = Locked<(at: Double, mark: Double?)?>(nil)

    /// `deadline`: when every request of the sync must be done (`--timeout`).
    public init(location: S3Location, credentials: S3Credentials, cacheFolder: String, deadline: Date? = nil) {
        var store = S3Store(location: location, credentials: credentials)
        store.deadline = deadline
        self.store = store
        let key = SHA256Hex.of(Data("\(location.endpoint)/\(location.bucket)/\(location.prefix)".utf8)).prefix(16)
        stateFile = CacheLayout(root: cacheFolder).bucketListing(String(key))
    }

    package struct State: Codable {
        /// The newest manifest seen, without the prefix.
        package var newest: String?
        /// Manifests whose submissions were listed but not settled, without the prefix.
        package var unsettled: [String] = []
        /// When a sync last listed the whole prefix, and the newest manifest's `LastModified` it
        /// saw (seconds since 1970).
        package var sweptAt: Double?
        package var sweptMark: Double?
    }

    public func submissions() throws(InboxFailure) -> [InboxSubmission] {
        let session = try Self.session(for: name)
        let state = readState()
        let prefix = store.location.prefix
        // A mark past now (one kept before marks were held to the clock) would hide everything
        // sent until then.
        let now = IntakeID.stamp(Date())
        let startAfter = state.newest.map { min($0, now) }.flatMap(Self.stamp(before:)).map { prefix + $0 }
        listedAt.withLock { $0 = now }
        var manifests = Set(state.unsettled)
        let clock = Date().timeIntervalSince1970
        // With no mark, the listing is whole anyway.
        let sweep = startAfter == nil || clock - (state.sweptAt ?? 0) > Self.sweepInterval
        let since = state.sweptMark.map { $0 - Self.overlap }
        var mark = state.sweptMark
        do throws(StoreFailure) {
            for object in try store.list(asking: prefix, startAfter: sweep ? nil : startAfter, session: session)
            where object.key.hasSuffix(Self.manifestSuffix) && !object.key.hasPrefix(prefix + Self.held) {
                let written = sweep ? Self.time(object.modified) : nil
                if let written { mark = max(mark ?? written, written) }
                // A whole listing reads what comes after the name mark, as any listing does, and
                // what the store wrote since the last whole listing (unknown time: read it too).
                guard !sweep || startAfter.map({ object.key > $0 }) ?? true
                        || since.map({ since in written.map { $0 >= since } ?? true }) ?? true else { continue }
                manifests.insert(String(object.key.dropFirst(prefix.count)))
            }
        } catch {
            throw InboxFailure(source: name, reason: error.description)
        }
        if sweep { swept.withLock { $0 = (clock, mark) } }
        var found: [InboxSubmission] = []
        for manifest in manifests.sorted() {
            let data: Data?
            do throws(StoreFailure) {
                data = try store.get(prefix + manifest, session: session)
            } catch {
                throw InboxFailure(source: name, reason: error.description)
            }
            guard let data else { continue }  // an unsettled one taken away since
            // Each manifest is one writer's submission: a damaged one is rejected on its own,
            // with its reason, and the others are filed.
            let entries: [InboxSubmission]
            do throws(InboxFailure) {
                entries = try Inbox.parseManifest(data, source: name + manifest)
            } catch {
                found.append(InboxSubmission(id: Self.id(ofDamaged: manifest), files: [], sha256: [:],
                                             problem: "the manifest \(manifest) cannot be read: \(error.reason)"))
                listedManifests.withLock { $0[Self.id(ofDamaged: manifest)] = manifest }
                continue
            }
            listedManifests.withLock { known in
                for entry in entries { known[entry.id] = manifest }
            }
            found += entries
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
        let manifests = listedManifests.withLock { $0 }
        let seen = Set(listed.compactMap { manifests[$0.id] })
        let open = Set(listed.filter { !settled.contains($0.id) }.compactMap { manifests[$0.id] })
        // Never past the listing's time: one manifest named by a fast clock (or by anyone who
        // can put an object) would otherwise hide every later submission until its date. One
        // dated ahead is listed again on every sync, and the ledger knows it is filed.
        let ceiling = listedAt.withLock { $0 } ?? IntakeID.stamp(Date())
        state.newest = state.newest.map { min($0, ceiling) }
        if let newest = seen.max().map({ min($0, ceiling) }), newest > (state.newest ?? "") { state.newest = newest }
        state.unsettled = Array(Set(state.unsettled).subtracting(seen).union(open)).sorted()
        if let (at, mark) = swept.withLock({ $0 }) {
            state.sweptAt = at
            state.sweptMark = mark ?? state.sweptMark
        }
        // The state only saves work: if it cannot be written, the next sync reads the bucket again.
        if let data = try? JSONEncoder().encode(state) {
            try? FileManager.default.createDirectory(atPath: (stateFile as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            FileSystem.replaceFile(data, at: stateFile)
        }
    }

    private func readState() -> State {
        // The state only saves work: unreadable state is no state.
        FileManager.default.contents(atPath: stateFile).flatMap { try? JSONDecoder().decode(State.self, from: $0) } ?? State()
    }

    /// A listing's `LastModified`, with or without fractional seconds.
    private static func time(_ text: String) -> Double? {
        // Either form may come; neither (an empty field) is an unknown time.
        ((try? Date(text, strategy: .iso8601.time(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: .iso8601)))?.timeIntervalSince1970
    }

    /// An id for a damaged manifest's rejection: its name when that is a plain one, else a digest of it.
    package static func id(ofDamaged manifest: String) -> String {
        let name = String(manifest.dropLast(manifestSuffix.count))
        let plain = !name.isEmpty && name.count <= 100
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
            && !name.hasPrefix(".")
        return plain ? name : "manifest-" + String(SHA256Hex.of(Data(manifest.utf8)).prefix(16))
    }

    /// The time a manifest's name starts with, a quarter of an hour earlier: `20261123-100000`.
    package static func stamp(before name: String) -> String? {
        let parts = name.split(separator: "-")
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
