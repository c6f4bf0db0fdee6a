import Foundation

/// What a bucket holds under a prefix, as the last deploy left it: each object's SHA-256 and
/// size, one line each. It is stored as a hidden object beside the site's objects, so a
/// deploy compares digests instead of listing and reading the bucket.
struct DeployManifest: Sendable, Equatable {
    static let header = "teardown-deploy 1"
    static let objectName = ".teardown-deploy"

    struct Entry: Sendable, Equatable {
        let sha256: String
        let size: Int
    }

    var entries: [String: Entry]

    func serialized() -> Data {
        var text = Self.header + "\n"
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            text += "\(entry.sha256) \(entry.size) \(path)\n"
        }
        return Data(text.utf8)
    }

    /// Nil for anything that is not a manifest: the deploy then lists the bucket instead.
    static func parse(_ data: Data) -> DeployManifest? {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.popFirst() == Substring(header) else { return nil }
        var entries: [String: Entry] = [:]
        for line in lines {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].count == 64, let size = Int(fields[1]), !fields[2].isEmpty else { return nil }
            entries[String(fields[2])] = Entry(sha256: String(fields[0]), size: size)
        }
        return DeployManifest(entries: entries)
    }
}
