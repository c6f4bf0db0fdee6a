import Foundation

/// Reads content files as UTF-8 text, reporting problems instead of throwing.
enum TextFile {
    static func read(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> String? {
        guard let data = FileManager.default.contents(atPath: file.absolutePath) else {
            diagnostics.append(.error(.unreadableFile(reason: "no such file or not readable"), at: file.location()))
            return nil
        }
        // The NUL test runs on bytes: on a String it walks grapheme clusters, which showed in profiles.
        guard !data.contains(0), let text = String(validating: data, as: UTF8.self) else {
            diagnostics.append(.error(.notUTF8, at: file.location()))
            return nil
        }
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }

    /// Visible entries of a folder, sorted so builds are deterministic; empty when it does not exist.
    static func entries(of folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Names used in URLs: machine, part and manual file names.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x5F
        }
    }
}
