import CTeardownSystem
import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension FileSystem {
    /// Writes a file with plain POSIX calls and no fsync: for caches, whose loss costs only speed.
    package static func writeFile(_ data: Data, to path: String) throws(Failure) {
        do {
            let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try file.closeAfter { _ = try file.writeAll(data) }
        } catch {
            throw Failure(path: path, error)
        }
    }

    /// Replaces a cache file whole: a hidden temporary file, then a rename, without fsync (a
    /// kill leaves the old file or the new one, and a crash of the machine at worst none, which
    /// costs only speed). False when it could not be written; nothing is left behind then.
    @discardableResult
    package static func replaceFile(_ data: Data, at path: String) -> Bool {
        let temporary = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent
            + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        do {
            try writeFile(data, to: temporary)
            try rename(temporary, to: path)
            return true
        } catch {
            // The write's own error is the one thrown; the scratch file is tidied if it can be.
            try? unlinkIfPresent(temporary)
            return false
        }
    }

    /// Writes a small file durably: a temporary file, fsync, then rename over the target, and
    /// fsync of its folder.
    /// The temporary file is hidden, so a run killed before the rename leaves nothing that
    /// loads as content; the next write of the same target removes what such runs left.
    package static func writeAtomically(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/." + (path as NSString).lastPathComponent + Self.temporaryMarker + "\(getpid())"
        do {
            let file = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate, .closeOnExec],
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try file.closeAfter {
                _ = try file.writeAll(data)
                guard fsync(file.rawValue) == 0 else { throw Errno(rawValue: Glibc.errno) }
            }
        } catch {
            unlink(temporary)
            throw Failure(path: temporary, error)
        }
        guard Glibc.rename(temporary, path) == 0 else {
            let failure = Failure.errno(path)
            unlink(temporary)
            throw failure
        }
        try syncFolder(folder)
        // Temporaries of this kind (`.<name>.teardown-tmp-<pid>`) in the folder, of any name, but
        // only of processes that are gone: a concurrent writer keeps its own. Those of this name
        // alone were swept before, and a sync killed while filing a comment left its temporary in
        // the comments folder until that very comment was filed again. Only names exactly as
        // written here are swept (the pid in plain decimal): an owner's `.notes.tmp-4000000` or
        // `.x.teardown-tmp-+4000001` is theirs.
        for name in FileSystem.names(in: folder) where name.hasPrefix(".") {
            guard let marker = name.range(of: Self.temporaryMarker, options: .backwards),
                  marker.lowerBound > name.index(after: name.startIndex),
                  let pid = pid_t(name[marker.upperBound...]), pid > 0, String(pid) == name[marker.upperBound...],
                  kill(pid, 0) != 0, Glibc.errno == ESRCH else { continue }
            unlink(folder + "/" + name)
        }
    }

    /// What names a temporary of `writeAtomically`, before its writer's pid.
    static let temporaryMarker = ".teardown-tmp-"
}
