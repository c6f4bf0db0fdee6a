import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif
import TeardownBase

/// The files of one submission while they arrive, in its own folder under `.incoming/`.
public final class IntakeUpload: @unchecked Sendable {
    public let id: String
    public let folder: String
    // Written by one request handler at a time; read after it finished writing.
    package private(set) var files: [String] = []
    package private(set) var sha256: [String: String] = [:]

    package init(id: String, folder: String) {
        self.id = id
        self.folder = folder
    }

    /// Writes a file from memory and fsyncs it; its digest is taken from the same bytes.
    public func write(_ name: String, _ data: Data) throws(InboxFailure) {
        let file = try open(name)
        try file.append(data)
        try file.finish()
        sha256[name] = SHA256Hex.of(data)
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
    package func adopt(_ name: String, replacing old: String) {
        files.removeAll { $0 == old }
        files.append(name)
        sha256[name] = sha256.removeValue(forKey: old)
    }

    /// Removes a file from the submission, and from disk.
    package func forget(_ name: String) {
        files.removeAll { $0 == name }
        sha256[name] = nil
        unlink(path(of: name))
    }

    /// The SHA-256 of each streamed file, read back from disk.
    package func digestFiles() throws(InboxFailure) {
        for name in files where sha256[name] == nil {
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
    private var file: FileDescriptor?
    public private(set) var size = 0

    package init(path: String) throws(InboxFailure) {
        self.path = path
        do {
            file = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                           permissions: .ownerReadWrite)
        } catch {
            throw InboxFailure(source: path, reason: ErrorText.text(error))
        }
    }

    // An upload dropped unfinished is discarded whole; its close loses nothing kept.
    deinit { try? file?.close() }

    public func append(_ data: Data) throws(InboxFailure) {
        var failure: InboxFailure?
        data.withUnsafeBytes { raw in
            do throws(InboxFailure) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func append(_ raw: UnsafeRawBufferPointer) throws(InboxFailure) {
        do {
            guard let file else { throw Errno.badFileDescriptor }
            _ = try file.writeAll(raw)
        } catch {
            throw InboxFailure(source: path, reason: ErrorText.text(error))
        }
        size += raw.count
    }

    /// Flushes the file to disk and closes it.
    public func finish() throws(InboxFailure) {
        guard let file else { return }
        // The bytes were synced above; a close that fails then loses nothing.
        defer { try? file.close(); self.file = nil }
        guard fsync(file.rawValue) == 0 else { throw InboxFailure(source: path, reason: "fsync: \(Errno(rawValue: errno))") }
    }
}
