import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    public let folder: String
    private let journal: ManifestJournal
    /// The files the manifest lists, kept until the manifest changes.
    private let listing = Locked<(stamp: ContentDigest?, files: Set<String>)>((nil, []))

    public var incoming: String { folder + "/.incoming" }
    public var pendingFolder: String { folder + "/.pending" }
    var manifestPath: String { folder + "/manifest.json" }

    public init(folder: String) throws(InboxFailure) {
        let folder = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        self.folder = folder
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
        for name in (try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? [] {
            try? FileSystem.removeTree(incoming + "/" + name)
        }
        // Under the lock: `teardown moderate` may be moving approved files in right now.
        try journal.locked { () throws(InboxFailure) in
            let listed = Set(try journal.read().flatMap(\.files))
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            where !name.hasPrefix(".") && name != "manifest.json" && !listed.contains(name) && IntakeID.isIntakeFile(name) {
                unlink(folder + "/" + name)
            }
        }
    }

    /// Whether the manifest lists a file: what the inbox may serve. The manifest is read again
    /// only when it changed, so a sync of many files does not parse it once per file.
    public func lists(_ name: String) -> Bool {
        let stamp = FileSystem.stamp(of: manifestPath)
        if let known = listing.withLock({ $0.stamp == stamp && stamp != nil ? $0.files : nil }) { return known.contains(name) }
        let files = Set(((try? submissions()) ?? []).flatMap(\.files))
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
            throw InboxFailure(source: path, reason: String(cString: strerror(errno)))
        }
        return IntakeUpload(id: id, folder: path)
    }

    /// Moves a complete upload into the inbox and lists it, or into `.pending/` when `hold` is
    /// set. Returns once the result is on disk; the upload folder is gone either way.
    public func publish(_ upload: IntakeUpload, hold: Bool) async throws(InboxFailure) {
        defer { try? FileSystem.removeTree(upload.folder) }
        try upload.digestFiles()
        let names = upload.files
        if hold {
            let target = pendingFolder + "/" + upload.id
            try Self.durableRename(upload.folder, to: target, folder: pendingFolder)
            return
        }
        for name in names {
            try Self.durableRename(upload.folder + "/" + name, to: folder + "/" + name, folder: nil)
        }
        try Self.syncFolder(folder)
        let entry = InboxSubmission(id: upload.id, files: names, sha256: upload.sha256)
        try await journal.append(entry)
    }

    // MARK: Moderation

    /// Submissions held for moderation, oldest first.
    public func held() -> [HeldSubmission] {
        let ids = ((try? FileManager.default.contentsOfDirectory(atPath: pendingFolder)) ?? []).filter(Inbox.isValidID).sorted()
        return ids.compactMap { HeldSubmission(id: $0, folder: pendingFolder + "/" + $0) }
    }

    /// Publishes held submissions; returns the ids not found.
    public func approve(_ ids: [String]) throws(InboxFailure) -> [String] {
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
                throw InboxFailure(source: path, reason: "cannot remove: \(error)")
            }
        }
        try Self.syncFolder(pendingFolder)
        return missing
    }

    // MARK: Disk

    static func durableRename(_ source: String, to target: String, folder: String?) throws(InboxFailure) {
        guard Glibc.rename(source, target) == 0 else {
            throw InboxFailure(source: target, reason: "cannot move into place: \(String(cString: strerror(errno)))")
        }
        if let folder { try syncFolder(folder) }
    }

    /// A rename is durable only once the folder holding the new name is fsynced.
    static func syncFolder(_ path: String) throws(InboxFailure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InboxFailure(source: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw InboxFailure(source: path, reason: "fsync: \(String(cString: strerror(errno)))") }
    }
}

/// A submission held for moderation, read back from its folder.
public struct HeldSubmission: Sendable {
    public let id: String
    public let folder: String
    public let files: [String]
    public let sha256: [String: String]
    /// The comment's Markdown, or the photo's details, as the moderator reads them.
    public let text: String

    init?(id: String, folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), !names.isEmpty else { return nil }
        self.id = id
        self.folder = folder
        files = names.sorted()
        var sha256: [String: String] = [:]
        var text = ""
        for name in files {
            guard let digest = SHA256Hex.of(file: folder + "/" + name) else { return nil }
            sha256[name] = digest
            if name.hasSuffix(".comment.md") || name.hasSuffix(".photo.yaml") {
                text = FileManager.default.contents(atPath: folder + "/" + name).flatMap(TextFile.decode) ?? ""
            }
        }
        self.sha256 = sha256
        self.text = text
    }

    public var isPhoto: Bool { files.contains(id + ".photo.yaml") }
}

/// The files of one submission while they arrive, in its own folder under `.incoming/`.
public final class IntakeUpload: @unchecked Sendable {
    public let id: String
    public let folder: String
    // Written by one request handler at a time; read after it finished writing.
    private(set) var files: [String] = []
    private(set) var sha256: [String: String] = [:]

    init(id: String, folder: String) {
        self.id = id
        self.folder = folder
    }

    /// Writes a small file and fsyncs it.
    public func write(_ name: String, _ data: Data) throws(InboxFailure) {
        let file = try open(name)
        try file.append(data)
        try file.finish()
    }

    /// A file to stream into, chunk by chunk.
    public func open(_ name: String) throws(InboxFailure) -> UploadFile {
        guard name.hasPrefix(id + "."), !name.contains("/") else {
            throw InboxFailure(source: name, reason: "not a file of submission \(id)")
        }
        let file = try UploadFile(path: folder + "/" + name)
        files.append(name)
        return file
    }

    public func path(of name: String) -> String { folder + "/" + name }

    /// Lists a file moved into the folder under a new name in place of an old one.
    func adopt(_ name: String, replacing old: String) {
        files.removeAll { $0 == old }
        files.append(name)
    }

    /// Removes a file from the submission, and from disk.
    func forget(_ name: String) {
        files.removeAll { $0 == name }
        unlink(path(of: name))
    }

    /// The SHA-256 of each file, read back from disk.
    func digestFiles() throws(InboxFailure) {
        for name in files {
            guard let digest = SHA256Hex.of(file: path(of: name)) else {
                throw InboxFailure(source: path(of: name), reason: "cannot be read back")
            }
            sha256[name] = digest
        }
    }
}

/// One file being written: appended to, then fsynced and closed.
public final class UploadFile: @unchecked Sendable {
    public let path: String
    private var descriptor: Int32
    public private(set) var size = 0

    init(path: String) throws(InboxFailure) {
        self.path = path
        descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw InboxFailure(source: path, reason: String(cString: strerror(errno))) }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public func append(_ data: Data) throws(InboxFailure) {
        var failure: InboxFailure?
        data.withUnsafeBytes { raw in
            do throws(InboxFailure) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func append(_ raw: UnsafeRawBufferPointer) throws(InboxFailure) {
        var offset = 0
        while offset < raw.count {
            let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw InboxFailure(source: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        size += raw.count
    }

    /// Flushes the file to disk and closes it.
    public func finish() throws(InboxFailure) {
        defer { close(descriptor); descriptor = -1 }
        guard fsync(descriptor) == 0 else { throw InboxFailure(source: path, reason: "fsync: \(String(cString: strerror(errno)))") }
    }
}

/// Ids intake gives submissions: the time received and a random part, so they sort by age
/// and cannot be guessed.
public enum IntakeID {
    public static func make(now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        let random = (0..<12).map { _ in String("0123456789abcdef".randomElement()!) }.joined()
        return "\(stamp)-\(random)"
    }

    /// A file named after an id of this shape.
    static func isIntakeFile(_ name: String) -> Bool {
        let id = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        let parts = id.split(separator: "-")
        return parts.count == 3 && parts[0].count == 8 && parts[1].count == 6 && parts[2].count == 12
            && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D }
    }
}
