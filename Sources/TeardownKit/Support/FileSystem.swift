import CTeardownSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The POSIX and Linux calls the build and sync rely on, with errors as messages.
/// This is the one Swift file that calls into CTeardownSystem.
enum FileSystem {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }

        static func errno(_ path: String) -> Failure {
            Failure(path: path, reason: String(cString: strerror(Glibc.errno)))
        }
    }

    /// Who a directory is, kept across renames: a new folder at the same path is someone else.
    struct Identity: Hashable, CustomStringConvertible {
        let device: UInt64
        let inode: UInt64
        let birthSeconds: Int64
        let birthNanoseconds: UInt32

        var description: String { "\(device)-\(inode)-\(birthSeconds).\(birthNanoseconds)" }
    }

    static func identity(of path: String) -> Identity? {
        var device: UInt64 = 0, inode: UInt64 = 0, seconds: Int64 = 0, nanoseconds: UInt32 = 0
        guard td_identity(path, &device, &inode, &seconds, &nanoseconds) == 0 else { return nil }
        return Identity(device: device, inode: inode, birthSeconds: seconds, birthNanoseconds: nanoseconds)
    }

    /// Swaps two existing paths in one step. False when the file system cannot (then nothing moved).
    static func exchange(_ first: String, _ second: String) throws -> Bool {
        if td_exchange(first, second) == 0 { return true }
        if Glibc.errno == EINVAL || Glibc.errno == ENOSYS || Glibc.errno == EXDEV { return false }
        throw Failure.errno(first)
    }

    static func rename(_ source: String, to target: String) throws {
        guard Glibc.rename(source, target) == 0 else { throw Failure.errno(source) }
    }

    /// Size, modification and change times and inode: what make and git use to tell that a
    /// file changed without reading it. Nil when the file is missing.
    static func stamp(of path: String) -> ContentDigest? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var fingerprint = Fingerprint()
        fingerprint.add(Int(info.st_size))
        fingerprint.add(Int(info.st_mtim.tv_sec))
        fingerprint.add(Int(info.st_mtim.tv_nsec))
        fingerprint.add(Int(info.st_ctim.tv_sec))
        fingerprint.add(Int(info.st_ctim.tv_nsec))
        fingerprint.add(Int(bitPattern: UInt(info.st_ino)))
        return fingerprint.digest
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Removes a file if present.
    static func unlinkIfPresent(_ path: String) throws {
        if unlink(path) != 0 && Glibc.errno != ENOENT { throw Failure.errno(path) }
    }

    /// A second name for a file: cheap, and safe because outputs are never rewritten in place.
    static func hardLink(_ source: String, to target: String) throws {
        try unlinkIfPresent(target)
        if link(source, target) != 0 { throw Failure.errno(source) }
    }

    /// Removes empty folders from `path` upward, stopping below `root` or at the first non-empty one.
    static func removeEmptyFolders(from path: String, below root: String) {
        var folder = path
        while folder.count > root.count, folder.hasPrefix(root + "/"), rmdir(folder) == 0 {
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// Removes a file or a whole tree; no error when it is already gone.
    static func removeTree(_ path: String) throws {
        guard exists(path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw Failure(path: path, reason: error.localizedDescription)
        }
    }

    /// Writes a small file durably: a temporary file, fsync, then rename over the target.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure.errno(temporary) }
        var failed = false
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if Glibc.errno == EINTR { continue }
                    failed = true
                    return
                }
                offset += written
            }
        }
        if failed || fsync(descriptor) != 0 {
            let failure = Failure.errno(temporary)
            close(descriptor)
            unlink(temporary)
            throw failure
        }
        close(descriptor)
        guard Glibc.rename(temporary, path) == 0 else {
            let failure = Failure.errno(path)
            unlink(temporary)
            throw failure
        }
    }
}
