import Foundation
import TeardownBase

/// Reads content files as UTF-8 text, reporting problems instead of throwing.
package enum TextFile {
    package static func read(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> String? {
        let data: Data
        switch FileSystem.contentsWithoutFollowing(file.absolutePath) {
        case .success(let bytes): data = bytes
        case .failure(.symbolicLink):
            diagnostics.append(.error(.symbolicLink, at: file.location()))
            return nil
        case .failure(.unreadable):
            diagnostics.append(.error(.unreadableFile(reason: "no such file or not readable"), at: file.location()))
            return nil
        }
        guard let text = decode(data) else {
            diagnostics.append(.error(.notUTF8, at: file.location()))
            return nil
        }
        return text
    }

    /// UTF-8 text without NUL bytes, read the same from any editor: a byte order mark is dropped
    /// and Windows line ends become "\n". Sync reads submissions with it too.
    package static func decode(_ data: Data) -> String? {
        // The NUL test runs on bytes: on a String it walks grapheme clusters, which showed in profiles.
        guard !data.contains(0), let text = String(validating: data, as: UTF8.self) else { return nil }
        let unmarked = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // Swift reads "\r\n" as one Character, so a split on "\n" would not see Windows line ends.
        return data.contains(13) ? unmarked.replacingOccurrences(of: "\r\n", with: "\n") : unmarked
    }

    package struct Entry {
        package let name: String
        package let isDirectory: Bool
    }

    /// Visible entries of a content folder, sorted so builds are deterministic; empty when it
    /// does not exist. Symbolic links could lead out of content/: they are reported and left out,
    /// as is everything in a folder that is itself a link.
    /// `keepingLinks` hands links on to a caller that reports them its own way (a photo is skipped).
    package static func list(_ folder: SourceFile, keepingLinks: Bool = false, diagnostics: inout [Diagnostic]) -> [Entry] {
        if FileSystem.isSymbolicLink(folder.absolutePath) {
            diagnostics.append(.error(.symbolicLink, at: folder.location()))
            return []
        }
        let entries = FileSystem.entries(of: folder.absolutePath) ?? []
        return entries.sorted { $0.name < $1.name }.compactMap { entry in
            if entry.kind == .symbolicLink, !keepingLinks {
                diagnostics.append(.error(.symbolicLink, at: folder.appending(entry.name).location()))
                return nil
            }
            return Entry(name: entry.name, isDirectory: entry.kind == .directory)
        }
    }

    /// Folder names become URLs, and a disk that ignores case (macOS's, Windows') holds only one of
    /// two names that differ in case alone: the second is an error. `names` are in listing order.
    package static func reportCaseTwins(_ names: [String], in folder: SourceFile, diagnostics: inout [Diagnostic]) {
        var seen: [String: String] = [:]
        for name in names {
            let key = name.lowercased()
            if let first = seen[key], first != name {
                diagnostics.append(.error(.sameNameButCase(name, first), at: folder.appending(name).location()))
            } else {
                seen[key] = name
            }
        }
    }

    package static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    package static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Names used in URLs: machine, part and manual file names.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= Problem.maxNameLength && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x5F
        }
    }
}
