import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif
import TeardownBase
import TeardownContent

/// The inbox `teardown intake` writes and `teardown sync` reads, in the inbox format:
///
///     manifest.json   every published submission, with each file's SHA-256
///     <id>.*          the files of published submissions
///     .incoming/<id>/ uploads in progress: never listed, and emptied when intake starts
///     .pending/<id>/  submissions held for moderation
///     .lock           taken while the manifest changes, by intake and `teardown moderate` alike
///
/// A submission becomes visible only when the manifest naming it has been written, fsynced
/// and renamed into place, after its own files were fsynced and renamed: a process killed at
/// any moment leaves either the whole submission or none of it.
public final class IntakeInbox: Sendable {
    /// The inbox, or with `bucket`, the folder where uploads arrive before they go to the bucket.
    public let folder: String
    /// A bucket the submissions go to instead of the folder, shared with other intake processes.
    package let bucket: BucketShelf?
    /// Where the inbox is, in words: its folder, or its bucket.
    public var name: String { bucketName ?? folder }
    /// The bucket the inbox is kept in, if it is not the folder.
    public var bucketName: String? { bucket?.store.location.description }
    private let journal: ManifestJournal
    /// The files the manifest lists, kept until the manifest changes.
    private let listing = Locked<(stamp: ContentDigest?, files: Set<String>)>((nil, []))

    public var incoming: String { folder + "/.incoming" }
    public var pendingFolder: String { folder + "/.pending" }
    package var manifestPath: String { folder + "/manifest.json" }

    /// With `bucket`, each submission goes to the bucket as its files and then its own
    /// `<id>.manifest.json` (see `BucketInbox`), and the folder only holds uploads in progress.
    public init(folder: String, bucket: (location: S3Location, credentials: S3Credentials)? = nil) throws(InboxFailure) {
        let folder = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        self.folder = folder
        self.bucket = bucket.map { BucketShelf(store: S3Store(location: $0.location, credentials: $0.credentials)) }
        journal = ManifestJournal(folder: folder)
        for path in [folder, folder + "/.incoming", folder + "/.pending"] {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw InboxFailure(source: path, reason: "cannot create the folder: \(error.localizedDescription)")
            }
        }
        if !FileSystem.exists(manifestPath) {
            try journal.update { _ in }
        }
    }

    /// Removes uploads left by a process that was killed, and files a killed process renamed
    /// into the inbox without reaching its manifest. Call once, before taking submissions.
    public func recover() throws(InboxFailure) {
        for name in FileSystem.names(in: incoming) {
            FileSystem.discard(incoming + "/" + name)
        }
        // Under the lock: `teardown moderate` may be moving approved files in right now.
        try journal.locked { () throws(InboxFailure) in
            let listed = Set(try journal.read().flatMap(\.files))
            for name in FileSystem.names(in: folder)
            where !name.hasPrefix(".") && name != "manifest.json" && !listed.contains(name) && IntakeID.isIntakeFile(name) {
                unlink(folder + "/" + name)
            }
        }
    }

    /// Whether the manifest lists a file: what the inbox may serve. The manifest is read again
    /// only when it changed, so a sync of many files does not parse it once per file.
    /// A manifest that cannot be read is an error, not an empty list: every file would have
    /// been a 404, and sync would have said the inbox was empty.
    public func lists(_ name: String) throws(InboxFailure) -> Bool {
        let stamp = FileSystem.stamp(of: manifestPath)
        if let known = listing.withLock({ $0.stamp == stamp && stamp != nil ? $0.files : nil }) { return known.contains(name) }
        let files = Set(try submissions().flatMap(\.files))
        listing.withLock { $0 = (stamp, files) }
        return files.contains(name)
    }

    /// Every published submission, as the manifest lists it.
    public func submissions() throws(InboxFailure) -> [InboxSubmission] {
        try FolderInbox(folder: folder).submissions()
    }

    // MARK: Writing

    /// A folder for one submission's files while they arrive.
    public func beginUpload(id: String) throws(InboxFailure) -> IntakeUpload {
        let path = incoming + "/" + id
        guard mkdir(path, 0o700) == 0 else {
            throw InboxFailure(source: path, reason: Errno(rawValue: errno).description)
        }
        return IntakeUpload(id: id, folder: path)
    }

    /// Moves a complete upload into the inbox and lists it, or into `.pending/` when `hold` is
    /// set. Returns once the result is on disk; the upload folder is gone either way.
    public func publish(_ upload: IntakeUpload, hold: Bool) async throws(InboxFailure) {
        defer { FileSystem.discard(upload.folder) }
        let (folder, pendingFolder) = (self.folder, self.pendingFolder)
        // Digests, renames and fsync wait on the disk: on the blocking pool.
        let bucket = self.bucket
        let entry = try await BlockingPool.run { () throws(InboxFailure) -> InboxSubmission? in
            if let bucket {
                try upload.digestFiles()
                try bucket.put(upload, held: hold)
                return nil
            }
            if hold {
                // Digests are taken when a moderator approves it, from the files as they are then.
                try Self.durableRename(upload.folder, to: pendingFolder + "/" + upload.id, folder: pendingFolder)
                return nil
            }
            try upload.digestFiles()
            let names = upload.files
            for name in names {
                try Self.durableRename(upload.folder + "/" + name, to: folder + "/" + name, folder: nil)
            }
            try Self.syncFolder(folder)
            return InboxSubmission(id: upload.id, files: names, sha256: upload.sha256)
        }
        if let entry { try await journal.append(entry) }
    }

    /// With a bucket, asks it once: wrong keys, a missing bucket or a dead store stop intake
    /// before it takes a submission it could not keep.
    public func checkBucket() throws(InboxFailure) {
        try bucket?.check()
    }

    // MARK: Moderation

    /// Submissions held for moderation, oldest first.
    public func held() throws(InboxFailure) -> [HeldSubmission] {
        if let bucket { return try bucket.held() }
        let ids = FileSystem.names(in: pendingFolder).filter(Inbox.isValidID).sorted()
        return ids.compactMap { HeldSubmission(id: $0, folder: pendingFolder + "/" + $0) }
    }

    /// Publishes held submissions; returns the ids not found.
    public func approve(_ ids: [String]) throws(InboxFailure) -> [String] {
        if let bucket { return try bucket.approve(ids) }
        var missing: [String] = []
        try journal.update { manifest throws(InboxFailure) in
            for id in ids {
                guard Inbox.isValidID(id), let held = HeldSubmission(id: id, folder: pendingFolder + "/" + id) else {
                    missing.append(id)
                    continue
                }
                for name in held.files {
                    try Self.durableRename(held.folder + "/" + name, to: folder + "/" + name, folder: nil)
                }
                try Self.syncFolder(folder)
                manifest.append(InboxSubmission(id: id, files: held.files, sha256: held.sha256))
                rmdir(held.folder)
            }
        }
        return missing
    }

    /// Deletes held submissions: a rejected submission is not kept anywhere. Returns the ids not found.
    public func reject(_ ids: [String]) throws(InboxFailure) -> [String] {
        if let bucket { return try bucket.reject(ids) }
        var missing: [String] = []
        for id in ids {
            let path = pendingFolder + "/" + id
            guard Inbox.isValidID(id), FileSystem.isDirectory(path) else {
                missing.append(id)
                continue
            }
            do {
                try FileSystem.removeTree(path)
            } catch {
                throw InboxFailure(source: path, reason: "cannot remove: \(ErrorText.text(error))")
            }
        }
        try Self.syncFolder(pendingFolder)
        return missing
    }

    /// Drops published submissions received before `day` (YYYY-MM-DD) from the manifest, then
    /// deletes their files, so an inbox that sync has long taken from stays small. Returns the ids.
    public func prune(before day: String) throws(InboxFailure) -> [String] {
        // A day of the calendar: 2026-13-01 would have pruned everything before 2027.
        guard day.count == 10, let parsed = ISODate(day), !parsed.hasTime else {
            throw InboxFailure(source: day, reason: "not a day of the form YYYY-MM-DD")
        }
        let cutoff = day.replacingOccurrences(of: "-", with: "")
        if let bucket { return try bucket.prune(before: cutoff) }
        var dropped: [InboxSubmission] = []
        try journal.update { entries in
            dropped = entries.filter { IntakeID.isIntakeFile($0.id) && $0.id.prefix(8) < cutoff }
            let gone = Set(dropped.map(\.id))
            entries.removeAll { gone.contains($0.id) }
        }
        // Unlisted first, then deleted: a kill in between leaves files that recover() removes.
        for name in dropped.flatMap(\.files) { unlink(folder + "/" + name) }
        return dropped.map(\.id)
    }

    // MARK: Disk

    package static func durableRename(_ source: String, to target: String, folder: String?) throws(InboxFailure) {
        guard Glibc.rename(source, target) == 0 else {
            throw InboxFailure(source: target, reason: "cannot move into place: \(Errno(rawValue: errno).description)")
        }
        if let folder { try syncFolder(folder) }
    }

    package static func syncFolder(_ path: String) throws(InboxFailure) {
        do {
            try FileSystem.syncFolder(path)
        } catch {
            throw InboxFailure(source: path, reason: "fsync: \(error.reason)")
        }
    }
}
