import Foundation

/// Puts a finished staging tree in place of the output folder, so the output is either the
/// previous site or the new one, never a mix. Top-level hidden entries of the previous output
/// that the build did not produce (a deploy checkout's .git, a placeholder) are kept.
struct Publisher: Sendable {
    let output: String

    var staging: String { sibling("staging") }
    private var previous: String { sibling("previous") }

    private func sibling(_ role: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(role)").path
    }

    /// Removes what an interrupted build left behind and makes an empty staging folder.
    func prepare() throws {
        let files = FileManager.default
        try? files.removeItem(atPath: staging)
        if files.fileExists(atPath: previous) {
            // A build stopped between its two renames: the previous site is the one to keep.
            if !files.fileExists(atPath: output) {
                try files.moveItem(atPath: previous, toPath: output)
            } else {
                try files.removeItem(atPath: previous)
            }
        }
        try files.createDirectory(atPath: staging, withIntermediateDirectories: true)
    }

    func publish() throws {
        let files = FileManager.default
        if files.fileExists(atPath: output) {
            for name in (try? files.contentsOfDirectory(atPath: output)) ?? [] where name.hasPrefix(".") {
                let target = staging + "/" + name
                if !files.fileExists(atPath: target) {
                    try files.moveItem(atPath: output + "/" + name, toPath: target)
                }
            }
            try files.moveItem(atPath: output, toPath: previous)
        }
        try files.moveItem(atPath: staging, toPath: output)
        try? files.removeItem(atPath: previous)
    }

    /// Drops a staging tree after a failed build.
    func discard() {
        try? FileManager.default.removeItem(atPath: staging)
    }
}
