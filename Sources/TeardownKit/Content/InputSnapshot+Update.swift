import Foundation

/// A snapshot brought up to date by the paths known to have changed, instead of by a walk:
/// `teardown sync` knows the files it filed, `teardown serve` what inotify reported.
extension InputSnapshot {
    /// The snapshot a build stored at `path`, as it was written (nothing is checked against
    /// the disk); nil when it is missing, cut short, or for other roots or settings.
    static func stored(at path: String, roots: [String], key: ContentDigest) -> (InputSnapshot, Record)? {
        guard let data = FileManager.default.contents(atPath: path), let record = record(in: data, roots: roots, key: key)
        else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let marker = text.range(of: "\nentries\n") else { return nil }
        var entries: [Entry] = []
        for line in text[marker.upperBound...].split(separator: "\n") where !line.hasPrefix("end ") {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let signature = UInt64(fields[0], radix: 16) else { return nil }
            let hasDigest = fields.count == 3 && fields[1].utf8.count == 32 && !fields[1].contains("/")
            let located = hasDigest ? fields[2] : line[fields[1].startIndex...]
            guard let slash = located.firstIndex(of: "/"), let root = Int(located[..<slash]), roots.indices.contains(root) else {
                return nil
            }
            entries.append(Entry(root: root, path: String(located[located.index(after: slash)...]), signature: signature,
                                 content: hasDigest ? ContentDigest(hex: fields[1]) : nil))
        }
        return (InputSnapshot(key: key, roots: roots, entries: entries), record)
    }

    /// This snapshot with `paths` (absolute) looked at again: each one, the folders above it
    /// up to its root, and everything below it when it is a folder. A path that is gone takes
    /// what was below it along. Paths outside the roots, and hidden ones, are not inputs.
    /// Nil when a path holds something a walk could not vouch for.
    func updating(_ paths: [String], racyWindow: Double = racyWindow) -> InputSnapshot? {
        let started = Date().timeIntervalSince1970
        var byPath: [Int: [String: Entry]] = [:]
        for entry in entries { byPath[entry.root, default: [:]][entry.path] = entry }
        func record(_ root: Int, _ relative: String, _ status: FileSystem.Status) {
            let racy = status.changed > started - racyWindow
            byPath[root, default: [:]][relative] = Entry(
                root: root, path: relative, signature: status.signature,
                content: racy ? Self.contentDigest(roots[root], relative, isDirectory: status.isDirectory) : nil)
        }
        // Roots and paths may be written relative to the working folder or with "./" in them.
        let absoluteRoots = roots.map { $0.isEmpty ? "" : URL(fileURLWithPath: $0).standardizedFileURL.path }
        for path in Set(paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }) {
            guard let root = absoluteRoots.indices.first(where: {
                !absoluteRoots[$0].isEmpty && (path == absoluteRoots[$0] || path.hasPrefix(absoluteRoots[$0] + "/"))
            }) else { continue }
            let relative = path == absoluteRoots[root] ? "" : String(path.dropFirst(absoluteRoots[root].count + 1))
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            // The folders above: an entry added or removed changes its folder's signature.
            var folder = relative
            while !folder.isEmpty {
                folder = (folder as NSString).deletingLastPathComponent
                guard let status = FileSystem.status(folder.isEmpty ? roots[root] : roots[root] + "/" + folder) else { return nil }
                record(root, folder, status)
            }
            // The path itself, and below it, anew.
            let prefix = relative.isEmpty ? "" : relative + "/"
            byPath[root] = byPath[root]?.filter { $0.key != relative && !$0.key.hasPrefix(prefix) }
            guard FileSystem.exists(path) else { continue }
            let complete = FileSystem.walk(path) { below, status in
                record(root, below.isEmpty ? relative : prefix + below, status)
            }
            if !complete {
                guard let status = FileSystem.status(path), !status.isDirectory else { return nil }
                record(root, relative, status)
            }
        }
        // Racy entries that have left the window keep their signature alone (see `unchanged(at:)`):
        // in a long serve session they would otherwise stay racy, and their bundles would never
        // be taken from the content cache. One that changed unreported makes the walk necessary.
        for (root, entries) in byPath {
            for (path, entry) in entries where entry.content != nil {
                let full = path.isEmpty ? roots[root] : roots[root] + "/" + path
                guard let status = FileSystem.status(full), status.signature == entry.signature else { return nil }
                if status.changed < started - racyWindow {
                    byPath[root]![path] = Entry(root: root, path: path, signature: entry.signature, content: nil)
                }
            }
        }
        let updated = byPath.keys.sorted().flatMap { root in byPath[root]!.values.sorted { $0.path < $1.path } }
        guard !updated.contains(where: { $0.path.contains("\n") }) else { return nil }
        return InputSnapshot(key: key, roots: roots, entries: updated)
    }

    /// Whether both record the same entries, in any order.
    func sameEntries(as other: InputSnapshot) -> Bool {
        guard roots == other.roots, entries.count == other.entries.count else { return false }
        func index(_ snapshot: InputSnapshot) -> [String: (UInt64, ContentDigest?)] {
            Dictionary(snapshot.entries.map { ("\($0.root)/\($0.path)", ($0.signature, $0.content)) }, uniquingKeysWith: { first, _ in first })
        }
        let mine = index(self), theirs = index(other)
        return mine.count == theirs.count && mine.allSatisfy { key, value in
            theirs[key].map { $0.0 == value.0 && $0.1 == value.1 } ?? false
        }
    }
}
