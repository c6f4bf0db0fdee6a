import CTeardownSystem
import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension FileSystem {
    /// Calls `visit` with the path relative to `root` and the status of `root` ("") and every
    /// visible entry below it, folders before their entries. False when the tree holds what a
    /// walk cannot vouch for: an unreadable entry, or a symbolic link to a folder.
    /// Folders for which `descend` says false are visited but not entered.
    package static func walk(_ root: String, descend: (String) -> Bool = { _ in true }, _ visit: (String, Status) -> Void) -> Bool {
        guard let top = status(root), top.isDirectory else { return false }
        visit("", top)
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        return walk(folder: descriptor, relative: "", descend: descend, visit)
    }

    /// One folder, open as `descriptor` (closed here), then its subfolders, each opened from it:
    /// opening every folder by its whole path makes the kernel resolve every parent again.
    /// One folder is open per level of depth.
    static func walk(folder descriptor: Int32, relative: String, descend: (String) -> Bool,
                             _ visit: (String, Status) -> Void) -> Bool {
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return false
        }
        defer { closedir(stream) }
        let opened = dirfd(stream)
        var folders: [(name: String, path: String)] = []
        while let entry = readdir(stream) {
            let name = Self.name(of: entry)
            if name.hasPrefix(".") { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            let found = status(in: opened, Self.namePointer(of: entry))
            guard var entryStatus = found else { return false }
            entryStatus.mayBeLink = entry.pointee.d_type == UInt8(DT_LNK) || entry.pointee.d_type == UInt8(DT_UNKNOWN)
            if entryStatus.isDirectory {
                if entry.pointee.d_type == UInt8(DT_LNK) { return false }
                if descend(path) { folders.append((name, path)) }
            }
            visit(path, entryStatus)
        }
        for folder in folders {
            // Not following a link: one put in place of a folder since it was looked at stops the walk.
            let child = openat(opened, folder.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
            guard child >= 0, walk(folder: child, relative: folder.path, descend: descend, visit) else { return false }
        }
        return true
    }

    static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        String(decoding: UnsafeRawBufferPointer(start: namePointer(of: entry), count: strlen(namePointer(of: entry))), as: UTF8.self)
    }

    /// The entry's name where the kernel wrote it. A record is only as long as its name: one at
    /// the end of readdir's buffer can end a few bytes past the name, before the 256 bytes
    /// `d_name` is declared with, at the edge of a page. Copying `d_name` whole (as reading it as
    /// a value does) read past that edge, and a build crashed clearing a search shard's folder.
    private static func namePointer(of entry: UnsafeMutablePointer<dirent>) -> UnsafePointer<CChar> {
        UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
    }

    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
}
