import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Writes output files with plain POSIX calls: Foundation's writers fsync every file,
/// which costs more than rendering on a site of thousands of pages. An existing file is
/// unlinked, never rewritten in place: the published tree may share it as a hard link.
struct OutputWriter: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    let root: String

    /// Creates every folder the given output paths need, once, before parallel writes.
    func createDirectories(for paths: [String]) throws {
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
            let failures = ParallelMap.map(levels[depth] ?? []) { folder -> Failure? in
                let full = root + "/" + folder
                guard mkdir(full, 0o755) != 0, errno != EEXIST else { return nil }
                return Failure(path: full, reason: String(cString: strerror(errno)))
            }
            if let failure = failures.compactMap({ $0 }).first { throw failure }
        }
    }

    func write(_ text: String, to path: String) throws {
        var text = text
        try text.withUTF8 { bytes in try write(bytes, to: path) }
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) throws {
        let full = root + "/" + path
        unlink(full)
        let descriptor = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: full, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard FileSystem.writeAll(descriptor, UnsafeRawBufferPointer(bytes)) else {
            throw Failure(path: full, reason: String(cString: strerror(errno)))
        }
    }

    func copy(from source: String, to path: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Failure(path: source, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        let full = root + "/" + path
        unlink(full)
        let output = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Failure(path: full, reason: String(cString: strerror(errno))) }
        defer { close(output) }
        let size = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer, size)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: source, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            var offset = 0
            while offset < count {
                let written = Glibc.write(output, buffer + offset, count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(path: full, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }
}
