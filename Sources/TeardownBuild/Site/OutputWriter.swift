import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import TeardownBase

/// Writes output files with plain POSIX calls: Foundation's writers fsync every file,
/// which costs more than rendering on a site of thousands of pages. An existing file is
/// unlinked, never rewritten in place: the published tree may share it as a hard link.
package struct OutputWriter: Sendable {
    package let root: String

    /// Creates every folder the given output paths need, once, before parallel writes.
    package func createDirectories(for paths: [String]) throws {
        var folders = Set<String>()
        for path in paths {
            var folder = (path as NSString).deletingLastPathComponent
            while !folder.isEmpty, folders.insert(folder).inserted {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        // Parents before children, and each level on all cores: mkdir is among the slowest
        // calls a build makes, and a catalog has a folder per page.
        let levels = Dictionary(grouping: folders) { $0.split(separator: "/").count }
        for depth in levels.keys.sorted() {
            let failures = ParallelMap.map(levels[depth] ?? []) { folder -> FileSystem.Failure? in
                let full = root + "/" + folder
                guard mkdir(full, 0o755) != 0, errno != EEXIST else { return nil }
                return FileSystem.Failure(path: full, Errno(rawValue: errno))
            }
            if let failure = failures.compactMap({ $0 }).first { throw failure }
        }
    }

    package func write(_ text: String, to path: String) throws {
        var text = text
        try text.withUTF8 { bytes in try write(bytes, to: path) }
    }

    package func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) throws {
        let full = root + "/" + path
        unlink(full)
        do {
            let file = try Self.create(full)
            try file.closeAfter { _ = try file.writeAll(UnsafeRawBufferPointer(bytes)) }
        } catch {
            throw FileSystem.Failure(path: full, error)
        }
    }

    package func copy(from source: String, to path: String) throws {
        let input: FileDescriptor
        do {
            input = try FileDescriptor.open(source, .readOnly, options: .closeOnExec)
        } catch {
            throw FileSystem.Failure(path: source, error)
        }
        // Closing a file opened for reading loses nothing.
        defer { try? input.close() }
        let full = root + "/" + path
        unlink(full)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        do {
            let output = try Self.create(full)
            try output.closeAfter {
                while true {
                    let count = try input.read(into: buffer)
                    if count == 0 { return }
                    _ = try output.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                }
            }
        } catch {
            throw FileSystem.Failure(path: full, error)
        }
    }

    private static func create(_ path: String) throws -> FileDescriptor {
        try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                                permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }
}
