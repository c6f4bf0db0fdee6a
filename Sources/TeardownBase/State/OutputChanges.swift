import Foundation

/// The output files builds changed since the last deploy of the output, one path a line,
/// written by each build under the output's build lock and taken by the deploy under the same
/// lock. A deploy then reads what changed, not every file of the output. Kept only while a
/// deploy's record of the output exists: a site that is never deployed writes nothing.
package enum OutputChanges {
    /// A line for "not known": the next deploy scans the whole output.
    static let unknown = "*"
    /// Past this size the changes are not worth listing: the next deploy scans.
    static let limit = 1 << 20

    /// Adds a build's changed paths (nil when not known) to the journal at `path`, when the
    /// deploy's record (`record`) exists. If they cannot be written, the record is removed, so
    /// that a deploy never trusts a record that misses a change.
    package static func note(_ paths: [String]?, journal path: String, record: String) {
        guard FileSystem.exists(record), paths?.isEmpty != true else { return }
        let size = FileSystem.status(path)?.size ?? 0
        let lines = paths.map { $0.joined(separator: "\n") + "\n" } ?? unknown + "\n"
        guard size + lines.utf8.count < limit, let handle = FileHandle(forWritingAtPath: path) ?? create(path) else {
            FileSystem.discard(record)
            return
        }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(lines.utf8))
            try handle.close()
        } catch {
            FileSystem.discard(record)
        }
    }

    private static func create(_ path: String) -> FileHandle? {
        FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
    }

    /// The paths noted since the journal was last cleared; nil when some change is not known.
    package static func read(_ path: String) -> Set<String>? {
        guard FileSystem.exists(path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return lines.contains(unknown) ? nil : Set(lines)
    }
}
