import CTeardownSystem
import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The POSIX and Linux calls the build and sync rely on, with errors as messages. Opening,
/// reading and writing go through swift-system's `FileDescriptor`, which retries interrupted
/// calls and reports `Errno`; what it lacks (fsync, flock, rename, link, the directory walk)
/// is called here directly. This is the one Swift file that calls into CTeardownSystem.
package enum FileSystem {
    /// A file operation that failed: the file, and the system's error number when the system
    /// said what went wrong, so a full disk is a case (`isNoSpace`), not words to search.
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package let code: Errno?
        package var description: String { "\(path): \(reason)" }
        package var isNoSpace: Bool { code == .noSpace }

        /// The failure of the call that just set errno.
        package static func errno(_ path: String) -> Failure {
            Failure(path: path, Errno(rawValue: Glibc.errno))
        }

        package init(path: String, reason: String, code: Errno? = nil) {
            self.path = path
            self.reason = reason
            self.code = code
        }

        package init(path: String, _ error: any Error) {
            if let failure = error as? Failure {
                self.init(path: path, reason: failure.reason, code: failure.code)
            } else if let code = error as? Errno {
                self.init(path: path, reason: code.description, code: code)
            } else {
                self.init(path: path, reason: ErrorText.describe(error).reason, code: ErrorText.isNoSpace(error) ? .noSpace : nil)
            }
        }
    }

    /// Who a directory is, kept across renames: a new folder at the same path is someone else.
    package struct Identity: Hashable, CustomStringConvertible {
        package let device: UInt64
        package let inode: UInt64
        package let birthSeconds: Int64
        package let birthNanoseconds: UInt32

        package var description: String { "\(device)-\(inode)-\(birthSeconds).\(birthNanoseconds)" }
    }

    package static func identity(of path: String) -> Identity? {
        var device: UInt64 = 0, inode: UInt64 = 0, seconds: Int64 = 0, nanoseconds: UInt32 = 0
        guard td_identity(path, &device, &inode, &seconds, &nanoseconds) == 0 else { return nil }
        return Identity(device: device, inode: inode, birthSeconds: seconds, birthNanoseconds: nanoseconds)
    }

    /// Swaps two existing paths in one step. False when the file system cannot (then nothing moved).
    package static func exchange(_ first: String, _ second: String) throws -> Bool {
        if td_exchange(first, second) == 0 { return true }
        if Glibc.errno == EINVAL || Glibc.errno == ENOSYS || Glibc.errno == EXDEV { return false }
        throw Failure.errno(first)
    }

    /// Why a server could not listen on host:port now, or nil when it could: whether the port
    /// is taken, and the reason in words.
    package static func portProblem(host: String, port: Int) -> (inUse: Bool, reason: String)? {
        let result = td_port_check(host, Int32(port))
        if result == 0 { return nil }
        return result < 0 ? (false, "\(host) does not resolve") : (result == EADDRINUSE, Errno(rawValue: result).description)
    }

    package static func rename(_ source: String, to target: String) throws {
        guard Glibc.rename(source, target) == 0 else { throw Failure.errno(source) }
    }

    /// Size, modification and change times and inode: what make and git use to tell that a
    /// file changed without reading it. Nil when the file is missing.
    package static func stamp(of path: String) -> ContentDigest? {
        status(path).map { ContentDigest(high: $0.signature, low: 0) }
    }

    /// What `stat` tells of an entry, reduced to what shows a change.
    package struct Status {
        /// Size, modification and change times, inode and type, mixed into one number.
        package let signature: UInt64
        /// The later of the modification and change times, in seconds.
        package let changed: Double
        package let isDirectory: Bool
        package let isRegularFile: Bool
        /// Size, modification time and inode without the change time: what a hard link to the
        /// file leaves as it was. Outputs are never rewritten in place, so this names their bytes.
        package let contentSignature: UInt64
        package let size: Int
        /// Whether the entry may be a symbolic link (its status is the target's): a walk that
        /// read the folder's entry type knows it is not.
        package var mayBeLink = true

        package init(_ info: stat) {
            let size = UInt64(bitPattern: Int64(info.st_size))
            let seconds = UInt64(bitPattern: Int64(info.st_mtim.tv_sec)), nanoseconds = UInt64(info.st_mtim.tv_nsec)
            let inode = UInt64(info.st_ino)
            signature = Self.mix(size, seconds, nanoseconds, UInt64(bitPattern: Int64(info.st_ctim.tv_sec)),
                                 UInt64(info.st_ctim.tv_nsec), inode, UInt64(info.st_mode))
            contentSignature = Self.mix(size, seconds, nanoseconds, inode)
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            changed = max(modified, Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9)
            isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
            isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
            self.size = Int(info.st_size)
        }

        /// splitmix64 over the fields: deterministic across runs, unlike Hasher.
        private static func mix(_ fields: UInt64...) -> UInt64 {
            var mixed: UInt64 = 0x9E37_79B9_7F4A_7C15
            for field in fields {
                mixed = (mixed ^ field) &+ 0x9E37_79B9_7F4A_7C15
                mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                mixed ^= mixed >> 31
            }
            return mixed
        }
    }

    /// Whether the file system holding `path` stamps changes by the kernel's clock, a tick at a
    /// time (local disks' and tmpfs): a change more than a tick after a file's stamp then gives
    /// it another (docs/ARCHITECTURE.md, "racy"). Network and FAT file systems stamp by another machine's
    /// clock or in steps of seconds.
    package static func stampsByKernelClock(_ path: String) -> Bool {
        kernelClockFileSystems.contains(td_file_system_type(path))
    }

    /// ext2-4, XFS, Btrfs, tmpfs, F2FS and overlayfs, by their magic numbers.
    private static let kernelClockFileSystems: Set<Int64> = [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0xF2F5_2010,
                                                             0x794C_7630]

    /// The status of `path`, following symbolic links; nil when it cannot be read.
    package static func status(_ path: UnsafePointer<CChar>) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(info)
    }

    /// The status of `name` in the open folder `folder`, following symbolic links. A walk
    /// asks this way: a whole path is resolved folder by folder on every call, which was most
    /// of the kernel's share of checking a catalog's inputs.
    package static func status(in folder: Int32, _ name: UnsafePointer<CChar>) -> Status? {
        var info = stat()
        guard fstatat(folder, name, &info, 0) == 0 else { return nil }
        return Status(info)
    }

    package static func status(_ path: String) -> Status? { path.withCString { status($0) } }

    /// A folder opened to look up entries from (`status(in:_:)`); -1 when it cannot be opened.
    package static func openFolder(_ path: String) -> Int32 { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }

    package static func closeFolder(_ descriptor: Int32) {
        if descriptor >= 0 { close(descriptor) }
    }

    package enum EntryKind { case file, directory, symbolicLink, other }

    package enum ReadFailure: Error {
        case symbolicLink
        case unreadable
    }

    /// A file's bytes, refusing a symbolic link in the same call that opens it, so that no link
    /// can be put in place between a check and the read.
    package static func contentsWithoutFollowing(_ path: String) -> Result<Data, ReadFailure> {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly, options: [.noFollow, .closeOnExec])
        } catch {
            return .failure(error as? Errno == .tooManySymbolicLinkLevels ? .symbolicLink : .unreadable)
        }
        // Closing a file opened for reading loses nothing; a failed stat is reported as unreadable.
        defer { try? file.close() }
        guard let info = try? file.stat(), info.type == .regular else { return .failure(.unreadable) }
        var data = Data(count: Int(info.size))
        var filled = 0
        while true {
            if filled == data.count { data.count += 64 * 1024 }  // the file grew since fstat
            let count = try? data.withUnsafeMutableBytes { buffer in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            guard let count else { return .failure(.unreadable) }
            if count == 0 { break }
            filled += count
        }
        data.count = filled
        return .success(data)
    }

    /// Pieces of the file at `path`, each `count` bytes from its `offset`, read through one
    /// descriptor into arrays of their own (no copy made after the read); nil when the file
    /// cannot be opened or read, or holds fewer bytes than asked.
    package static func read(_ path: String, pieces: [(offset: Int, count: Int)]) -> [[UInt8]]? {
        guard pieces.allSatisfy({ $0.offset >= 0 && $0.count >= 0 }),
              let file = try? FileDescriptor.open(path, .readOnly, options: [.closeOnExec]) else { return nil }
        // Closing a file opened for reading loses nothing; a failed read is a nil result.
        defer { try? file.close() }
        var read: [[UInt8]] = []
        for piece in pieces {
            var whole = true
            let bytes = [UInt8](unsafeUninitializedCapacity: piece.count) { buffer, initialized in
                var filled = 0
                while filled < piece.count {
                    // A read that fails leaves the piece short, and the result nil.
                    guard let got = try? file.read(fromAbsoluteOffset: Int64(piece.offset + filled),
                                                   into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[filled...]))),
                          got > 0 else { break }
                    filled += got
                }
                whole = filled == piece.count
                initialized = filled
            }
            guard whole else { return nil }
            read.append(bytes)
        }
        return read
    }

    /// Up to `count` bytes of the file at `path` from `offset` (fewer past its end), and the
    /// file's size; nil when it cannot be opened or read. What is read is bounded by the size,
    /// so a damaged length asks for no more memory than the file holds.
    package static func read(_ path: String, offset: Int, upTo count: Int) -> (bytes: Data, size: Int)? {
        guard offset >= 0, count >= 0, let file = try? FileDescriptor.open(path, .readOnly, options: [.closeOnExec]) else {
            return nil
        }
        // Closing a file opened for reading loses nothing; a failed stat or read is a nil result.
        defer { try? file.close() }
        guard let info = try? file.stat() else { return nil }
        let size = Int(info.size)
        var data = Data(count: max(0, min(count, size - offset)))
        var filled = 0
        while filled < data.count {
            // A read that fails is a nil result, as the signature says.
            let read = try? data.withUnsafeMutableBytes { buffer in
                try file.read(fromAbsoluteOffset: Int64(offset + filled), into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            guard let read else { return nil }
            if read == 0 { break }
            filled += read
        }
        data.count = filled
        return (data, size)
    }

    /// The visible entries of a folder with their kinds, links not followed; nil when the
    /// folder cannot be listed. readdir's type saves a stat per entry where the disk gives it.
    package static func entries(of folder: String) -> [(name: String, kind: EntryKind)]? {
        guard let stream = opendir(folder) else { return nil }
        defer { closedir(stream) }
        var entries: [(name: String, kind: EntryKind)] = []
        while let entry = readdir(stream) {
            let name = Self.name(of: entry)
            if name.hasPrefix(".") { continue }
            var type = entry.pointee.d_type
            if type == UInt8(DT_UNKNOWN) {
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                type = switch info.st_mode & S_IFMT {
                case S_IFREG: UInt8(DT_REG)
                case S_IFDIR: UInt8(DT_DIR)
                case S_IFLNK: UInt8(DT_LNK)
                default: UInt8(DT_UNKNOWN)
                }
            }
            let kind: EntryKind = switch type {
            case UInt8(DT_REG): .file
            case UInt8(DT_DIR): .directory
            case UInt8(DT_LNK): .symbolicLink
            default: .other
            }
            entries.append((name, kind))
        }
        return entries
    }

    package static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The size of a file in bytes, following links; nil when it cannot be read.
    package static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Sets `path`'s modification time to now, as a mark that it is in use.
    package static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// A plain file, not a link to one: what may be published from a content folder as it is.
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Removes a file if present.
    package static func unlinkIfPresent(_ path: String) throws {
        if unlink(path) != 0 && Glibc.errno != ENOENT { throw Failure.errno(path) }
    }

    /// A second name for a file: cheap, and safe because outputs are never rewritten in place.
    package static func hardLink(_ source: String, to target: String) throws {
        try unlinkIfPresent(target)
        if link(source, target) != 0 { throw Failure.errno(source) }
    }

    /// Removes empty folders from `path` upward, stopping below `root` or at the first non-empty one.
    /// Paths are compared resolved, component by component: `root/../x` is not below `root`.
    package static func removeEmptyFolders(from path: String, below root: String) {
        let base = (root as NSString).standardizingPath.split(separator: "/")
        var folder = (path as NSString).standardizingPath
        while case let parts = folder.split(separator: "/"), parts.count > base.count,
              parts.starts(with: base), rmdir(folder) == 0 {
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// The names in `folder`, none when it cannot be listed. For tidying and for caches: a folder
    /// that is missing or unreadable holds nothing this process must keep or may remove.
    package static func names(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    /// Removes a scratch file or tree whose work is over. One that cannot be removed costs only
    /// space: the work it served has already succeeded or failed, and the next run clears its own.
    package static func discard(_ path: String) {
        try? removeTree(path)
    }

    /// Removes a file or a whole tree; no error when it is already gone.
    package static func removeTree(_ path: String) throws {
        guard exists(path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw Failure(path: path, reason: error.localizedDescription)
        }
    }

    /// Makes renames into a folder durable: a new name is on disk only once its folder is fsynced.
    package static func syncFolder(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure.errno(path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure.errno(path) }
    }

    /// Takes an exclusive lock on `path` (made if missing), waiting for other holders, in this
    /// process or another; the kernel releases it if the holder dies. Pass the result to `unlock`.
    package static func lock(_ path: String) throws(Failure) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure.errno(path) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard Glibc.errno == EINTR else {
                let failure = Failure.errno(path)
                close(descriptor)
                throw failure
            }
        }
        return descriptor
    }

    package static func unlock(_ descriptor: Int32) {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
