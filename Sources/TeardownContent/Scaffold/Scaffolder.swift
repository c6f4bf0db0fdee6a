import Foundation
import TeardownBase

/// Creates new sites and machine bundles that build as they are.
public struct Scaffolder: Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case alreadyExists(String)
        case invalidName(String)
        case notASite(String)
        case writeFailed(String, reason: String)

        public var description: String {
            switch self {
            case .alreadyExists(let path): "\(path) already exists; nothing was changed"
            case .invalidName(let name):
                Problem.invalidName(name).message
                    + (Scaffolder.folderName(for: name).map { "; did you mean '\($0)'? (The title goes in its machine.yaml's name.)" } ?? "")
            case .notASite(let path): "\(path) has no content/ folder; run 'teardown new site' first or pass --site"
            case .writeFailed(let path, let reason): "cannot write \(path): \(reason)"
            }
        }
    }

    public init() {}

    /// A folder name made from a title ("My Toaster!" -> "my-toaster"): accents dropped, lower
    /// case, every other run of characters one '-'; nil when nothing of it is left.
    static func folderName(for title: String) -> String? {
        var name = ""
        var pendingDash = false
        for scalar in title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased().unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingDash && !name.isEmpty { name.append("-") }
                name.unicodeScalars.append(scalar)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        // Every character is ASCII: as many bytes as characters.
        var cut = String(name.prefix(Problem.maxNameLength))
        while cut.hasSuffix("-") { cut.removeLast() }
        return TextFile.isValidName(cut) ? cut : nil
    }

    /// A new site in `directory` with settings, one example machine and a one-page manual.
    /// Returns the files created, relative to `directory`.
    public func newSite(at directory: String, title: String? = nil) throws(Failure) -> [String] {
        let content = (directory as NSString).appendingPathComponent("content")
        if FileManager.default.fileExists(atPath: content) { throw .alreadyExists(content) }
        let siteTitle = title ?? (URL(fileURLWithPath: directory).lastPathComponent)
        var files = [
            ("content/site.yaml", Templates.siteYAML(title: siteTitle)),
            ("content/manual/index.md", Templates.manualIndex(title: siteTitle)),
            ("Themes/README.md", Templates.themesReadme),
            ("public/.gitkeep", ""),
        ]
        files += Templates.machine(name: "example-machine").map { ("content/machines/example-machine/" + $0.0, $0.1) }
        try write(files, into: directory)
        return files.map(\.0)
    }

    /// A new machine bundle `name` in the site at `siteRoot`. Returns the files created, relative to the site.
    public func newMachine(named name: String, siteRoot: String) throws(Failure) -> [String] {
        guard TextFile.isValidName(name) else { throw .invalidName(name) }
        let content = (siteRoot as NSString).appendingPathComponent("content")
        guard TextFile.isDirectory(content) else { throw .notASite(siteRoot) }
        let folder = "content/machines/\(name)"
        let full = (siteRoot as NSString).appendingPathComponent(folder)
        if FileManager.default.fileExists(atPath: full) { throw .alreadyExists(full) }
        let files = Templates.machine(name: name).map { (folder + "/" + $0.0, $0.1) }
        try write(files, into: siteRoot)
        return files.map(\.0)
    }

    private func write(_ files: [(String, String)], into root: String) throws(Failure) {
        for (relative, text) in files {
            let path = (root as NSString).appendingPathComponent(relative)
            do {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            } catch {
                throw .writeFailed(path, reason: error.localizedDescription)
            }
        }
    }
}
