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
            if files.fileExists(atPath: output) {
                // Stopped after the swap: finish it.
                try carryOverHiddenEntries()
                try files.removeItem(atPath: previous)
            } else {
                // Stopped between the two renames: the previous site is the one to keep.
                try files.moveItem(atPath: previous, toPath: output)
            }
        }
        try files.createDirectory(atPath: staging, withIntermediateDirectories: true)
    }

    func publish() throws {
        let files = FileManager.default
        if files.fileExists(atPath: output) {
            try files.moveItem(atPath: output, toPath: previous)
        }
        try files.moveItem(atPath: staging, toPath: output)
        try carryOverHiddenEntries()
        try? files.removeItem(atPath: previous)
    }

    /// Hidden entries exist in one place at every moment, so a kill at any point loses none.
    private func carryOverHiddenEntries() throws {
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: previous)) ?? [] where name.hasPrefix(".") {
            let target = output + "/" + name
            if !files.fileExists(atPath: target) {
                try files.moveItem(atPath: previous + "/" + name, toPath: target)
            }
        }
    }

    /// Drops a staging tree after a failed build.
    func discard() {
        try? FileManager.default.removeItem(atPath: staging)
    }
}
