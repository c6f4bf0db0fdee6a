import Foundation
import TeardownBase
import TeardownContent

/// What intake and `teardown moderate` do to a bucket inbox (see `BucketInbox` for its layout):
/// put a submission in, published or held, and list, approve, reject and prune.
///
/// Held submissions wait under `.pending-` (their files as `.pending-<name>`, and
/// `.pending-<id>.manifest.json`). Approving one copies its files to their published names,
/// then writes a manifest named by the time of approval, `<time>-approved-<id>.manifest.json`,
/// so that a sync that remembers how far it got still finds a submission held for days; then
/// the held objects go.
package struct BucketShelf: Sendable {
    package let store: S3Store
    package static let pending = BucketInbox.held

    private var prefix: String { store.location.prefix }
    private var name: String { store.location.description }

    /// Puts a submission's files in the bucket, then its manifest: the store has confirmed
    /// every object before the sender is answered, and sync lists only manifests, so a
    /// submission cut off half-way is never seen.
    package func put(_ upload: IntakeUpload, held: Bool) throws(InboxFailure) {
        let session = try session()
        let shelf = held ? Self.pending : ""
        try run { () throws(StoreFailure) in
            for file in upload.files {
                guard let data = FileManager.default.contents(atPath: upload.folder + "/" + file) else {
                    throw StoreFailure("\(upload.folder)/\(file) cannot be read back")
                }
                try store.put(prefix + shelf + file, body: data, headers: ["Content-Type: application/octet-stream"], session: session)
            }
            let entry = InboxSubmission(id: upload.id, files: upload.files, sha256: upload.sha256)
            try store.put(prefix + shelf + upload.id + BucketInbox.manifestSuffix, body: ManifestJournal.encode([entry]),
                          headers: ["Content-Type: application/json"], session: session)
        }
    }

    /// Held submissions, oldest first, with the text a moderator reads.
    package func held() throws(InboxFailure) -> [HeldSubmission] {
        let session = try session()
        return try run { () throws(StoreFailure) in
            var found: [HeldSubmission] = []
            for object in try store.list(asking: prefix + Self.pending, startAfter: nil, session: session)
            where object.key.hasSuffix(BucketInbox.manifestSuffix) {
                guard let data = try store.get(object.key, session: session),
                      // A manifest that does not parse is not a submission of ours; it is skipped.
                      let entry = try? Inbox.parseManifest(data, source: object.key).first else { continue }
                let text = try entry.files.first(where: SubmissionFiles.isDetails)
                    .flatMap { file throws(StoreFailure) in try store.get(prefix + Self.pending + file, session: session) }
                    .flatMap(TextFile.decode) ?? ""
                found.append(HeldSubmission(id: entry.id, files: entry.files, sha256: entry.sha256, text: text))
            }
            return found.sorted { $0.id < $1.id }
        }
    }

    /// Publishes held submissions; returns the ids not found.
    package func approve(_ ids: [String], now: Date = Date()) throws(InboxFailure) -> [String] {
        let session = try session()
        return try run { () throws(StoreFailure) in
            var missing: [String] = []
            for id in ids {
                guard let (data, entry) = try heldManifest(id, session: session) else {
                    missing.append(id)
                    continue
                }
                for file in entry.files {
                    guard let body = try store.get(prefix + Self.pending + file, session: session) else {
                        throw StoreFailure("\(name)\(Self.pending)\(file) is missing")
                    }
                    try store.put(prefix + file, body: body, headers: ["Content-Type: application/octet-stream"], session: session)
                }
                try store.put(prefix + IntakeID.stamp(now) + "-approved-" + id + BucketInbox.manifestSuffix, body: data,
                              headers: ["Content-Type: application/json"], session: session)
                try drop(entry, session: session)
            }
            return missing
        }
    }

    /// Deletes held submissions; returns the ids not found.
    package func reject(_ ids: [String]) throws(InboxFailure) -> [String] {
        let session = try session()
        return try run { () throws(StoreFailure) in
            var missing: [String] = []
            for id in ids {
                guard let (_, entry) = try heldManifest(id, session: session) else {
                    missing.append(id)
                    continue
                }
                try drop(entry, session: session)
            }
            return missing
        }
    }

    /// Deletes published submissions received before `cutoff` (YYYYMMDD): manifests first,
    /// so sync never lists a submission whose files are gone. Returns the ids.
    package func prune(before cutoff: String) throws(InboxFailure) -> [String] {
        let session = try session()
        return try run { () throws(StoreFailure) in
            var pruned: [String] = []
            for object in try store.list(asking: prefix, startAfter: nil, session: session)
            where object.key.hasSuffix(BucketInbox.manifestSuffix) && !object.key.hasPrefix(prefix + Self.pending) {
                guard let data = try store.get(object.key, session: session),
                      // A manifest that does not parse is not a submission of ours; it is skipped.
                      let entry = try? Inbox.parseManifest(data, source: object.key).first,
                      IntakeID.isIntakeFile(entry.id), entry.id.prefix(8) < cutoff else { continue }
                try store.delete(object.key, session: session)
                for file in entry.files { try store.delete(prefix + file, session: session) }
                pruned.append(entry.id)
            }
            return pruned
        }
    }

    /// Asks for an object that is not there: wrong keys, a missing bucket or a dead store stop
    /// intake before it takes a submission it could not keep.
    package func check() throws(InboxFailure) {
        let session = try session()
        try run { () throws(StoreFailure) in _ = try store.get(prefix + ".teardown-intake-check", session: session) }
    }

    /// A held submission's manifest, as stored and as read; nil when there is none.
    private func heldManifest(_ id: String, session: Curl.Session) throws(StoreFailure) -> (Data, InboxSubmission)? {
        guard Inbox.isValidID(id), let data = try store.get(prefix + Self.pending + id + BucketInbox.manifestSuffix, session: session),
              let entry = try? Inbox.parseManifest(data, source: id).first else { return nil }
        return (data, entry)
    }

    /// The held objects of a submission, manifest first.
    private func drop(_ entry: InboxSubmission, session: Curl.Session) throws(StoreFailure) {
        try store.delete(prefix + Self.pending + entry.id + BucketInbox.manifestSuffix, session: session)
        for file in entry.files { try store.delete(prefix + Self.pending + file, session: session) }
    }

    private func session() throws(InboxFailure) -> Curl.Session {
        guard let session = Curl.Session() else { throw InboxFailure(source: name, reason: "libcurl could not start") }
        return session
    }

    private func run<Value>(_ work: () throws(StoreFailure) -> Value) throws(InboxFailure) -> Value {
        do {
            return try work()
        } catch {
            throw InboxFailure(source: name, reason: error.description)
        }
    }
}
