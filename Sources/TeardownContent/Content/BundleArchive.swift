import Foundation
import SystemPackage
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#endif
import TeardownBase

/// A machine bundle shipped as content/machines/<name>.zip. Every entry is checked before
/// anything is written; then the archive is unpacked once into the cache, in a folder named
/// by its bytes and the size limit, and loads from there exactly like a bundle folder.
package struct BundleArchive {
    /// Bumped when unpacking changes, so folders unpacked by an older Teardown are not reused.
    package static let version = "1"
    /// Far more files than a bundle has; an archive of millions of empty entries is an attack.
    package static let maxEntries = 100_000

    /// The archive in the content folder.
    package let file: SourceFile
    /// Where unpacked bundles are kept.
    package let cache: String
    /// Most bytes the whole bundle may hold once unpacked.
    package let maxBytes: Int

    /// The bundle's folder, named like the machine (the archive's name without .zip) and shown in
    /// messages as the archive, so a problem in machine.yaml reads `press.zip/machine.yaml:3:1`.
    /// Nil, with an error naming the archive and the entry, when the archive cannot be trusted.
    package func unpack(diagnostics: inout [Diagnostic]) -> (folder: SourceFile, key: String)? {
        let slug = file.stem
        guard let key = key(diagnostics: &diagnostics) else { return nil }
        let folder = SourceFile(absolutePath: cache + "/" + key + "/" + slug, displayPath: file.displayPath)
        // Only a completely unpacked archive is ever renamed into place.
        if FileSystem.isDirectory(folder.absolutePath) { return (folder, key) }

        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: file.absolutePath), accessMode: .read)
        } catch {
            diagnostics.append(.error(.unreadableArchive(reason: "not a zip archive, or a damaged one"), at: file.location()))
            return nil
        }
        guard let entries = checkedEntries(archive, diagnostics: &diagnostics) else { return nil }
        let temporary = cache + "/.\(key).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { FileSystem.discard(temporary) }
        do {
            try FileManager.default.createDirectory(atPath: temporary + "/" + slug, withIntermediateDirectories: true)
        } catch {
            diagnostics.append(.error(.unreadableArchive(reason: "cannot unpack into \(cache): \(error.localizedDescription)"),
                                      at: file.location()))
            return nil
        }
        guard extractAll(entries, archive: archive, into: temporary + "/" + slug, diagnostics: &diagnostics) else { return nil }
        if rename(temporary, cache + "/" + key) != 0, !FileSystem.isDirectory(folder.absolutePath) {
            diagnostics.append(.error(.unreadableArchive(reason: "cannot unpack into \(cache)"), at: file.location()))
            return nil
        }
        return (folder, key)
    }

    /// The archive's cache key: its bytes, the unpacking's version and the size limit.
    private func key(diagnostics: inout [Diagnostic]) -> String? {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: file.absolutePath), options: .mappedIfSafe)
            var fingerprint = Fingerprint()
            fingerprint.add(Self.version)
            fingerprint.add(SHA256Hex.of(data))
            fingerprint.add(maxBytes)
            return fingerprint.digest.description
        } catch {
            diagnostics.append(.error(.unreadableArchive(reason: error.localizedDescription), at: file.location()))
            return nil
        }
    }

    /// Extracts the checked entries below `root`; false, with an error naming the entry, when one cannot be.
    private func extractAll(_ entries: [(Entry, String)], archive: Archive, into root: String,
                            diagnostics: inout [Diagnostic]) -> Bool {
        var written = 0
        for (entry, relative) in entries {
            let target = root + (relative.isEmpty ? "" : "/" + relative)
            do {
                if entry.type == .directory {
                    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
                    continue
                }
                try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try extract(entry, archive: archive, to: target, written: &written)
            } catch let failure as EntryFailure {
                diagnostics.append(.error(.unsafeArchiveEntry(entry.path, reason: failure.reason), at: file.location()))
                return false
            } catch {
                diagnostics.append(.error(.unsafeArchiveEntry(entry.path, reason: "cannot be unpacked: \(Self.describe(error))"),
                                          at: file.location()))
                return false
            }
        }
        return true
    }

    private struct EntryFailure: Error { package let reason: String }

    /// The entries to unpack with their paths inside the bundle, after checking every name, type
    /// and declared size; nil when one of them is unsafe.
    private func checkedEntries(_ archive: Archive, diagnostics: inout [Diagnostic]) -> [(Entry, String)]? {
        var entries: [(Entry, [String])] = []
        var declared: UInt64 = 0
        var seen = Set<String>()
        func reject(_ entry: String, _ reason: String) -> [(Entry, String)]? {
            diagnostics.append(.error(.unsafeArchiveEntry(entry, reason: reason), at: file.location()))
            return nil
        }
        for entry in archive {
            guard entries.count < Self.maxEntries else {
                return reject(entry.path, "is one of more than \(Self.maxEntries) entries")
            }
            let path = entry.path
            if path.hasPrefix("/") || path.hasPrefix("\\") || Self.hasDriveLetter(path) {
                return reject(path, "is an absolute path")
            }
            if path.contains("\\") { return reject(path, "has a backslash in its name") }
            if path.utf8.contains(0) { return reject(path, "has a NUL character in its name") }
            let components = path.split(separator: "/").map(String.init).filter { $0 != "." }
            if components.contains("..") { return reject(path, "leaves the bundle ('..' in its path)") }
            if entry.type == .symlink { return reject(path, "is a symbolic link") }
            // Archives made by the Mac's Finder carry resource forks beside the files.
            if components.first == "__MACOSX" || components.last == ".DS_Store" { continue }
            guard seen.insert(components.joined(separator: "/")).inserted || entry.type == .directory else {
                return reject(path, "appears twice")
            }
            declared += entry.uncompressedSize
            if declared > UInt64(maxBytes) {
                return reject(path, "takes the unpacked bundle over \(maxBytes) bytes (limits.bundle_max_bytes)")
            }
            entries.append((entry, components))
        }
        // The bundle is the archive's top level, or its only folder (how most tools zip a folder).
        let files = entries.filter { $0.0.type != .directory }.map(\.1)
        var strip = 0
        if !files.contains(["machine.yaml"]), let top = files.first?.first,
           files.allSatisfy({ $0.count > 1 && $0.first == top }), files.contains([top, "machine.yaml"]) {
            strip = 1
        }
        return entries.map { entry, components in (entry, components.dropFirst(strip).joined(separator: "/")) }
    }

    /// Writes one entry, counting the bytes that really come out: a size in the archive's
    /// directory can lie, so the limit holds for what is written, not for what was declared.
    private func extract(_ entry: Entry, archive: Archive, to target: String, written: inout Int) throws {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(target, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                           permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw EntryFailure(reason: "cannot be written: \(ErrorText.text(error))")
        }
        // A close that fails after the writes were checked loses nothing.
        defer { try? file.close() }
        var total = written
        let limit = maxBytes
        let checksum = try archive.extract(entry) { chunk in
            total += chunk.count
            guard total <= limit else {
                throw EntryFailure(reason: "takes the unpacked bundle over \(limit) bytes (limits.bundle_max_bytes)")
            }
            do {
                _ = try file.writeAll(chunk)
            } catch {
                throw EntryFailure(reason: "cannot be written: \(ErrorText.text(error))")
            }
        }
        guard checksum == entry.checksum else { throw Archive.ArchiveError.invalidCRC32 }
        written = total
    }

    private static func hasDriveLetter(_ path: String) -> Bool {
        let bytes = Array(path.utf8.prefix(2))
        return bytes.count == 2 && bytes[1] == UInt8(ascii: ":")
            && ((0x41...0x5A).contains(bytes[0]) || (0x61...0x7A).contains(bytes[0]))
    }

    private static func describe(_ error: Error) -> String {
        switch error as? Archive.ArchiveError {
        case .invalidCRC32?: "its checksum does not match (the archive is damaged)"
        case .invalidCompressionMethod?: "it uses a compression method other than deflate"
        case nil: ErrorText.text(error)
        default: "the archive is damaged"
        }
    }

    /// Removes unpacked bundles that no archive of this build uses any more.
    package static func prune(_ cache: String, keeping used: Set<String>) {
        for name in FileSystem.names(in: cache) where !used.contains(name) {
            // A temporary folder of a run still going is left to it.
            if name.hasPrefix("."), let pid = name.split(separator: "-").dropFirst().first.flatMap({ pid_t($0) }),
               kill(pid, 0) == 0 {
                continue
            }
            FileSystem.discard(cache + "/" + name)
        }
    }
}
