import Foundation
import TeardownBase

/// The paths an update of an `InputSnapshot` looks at again: the entries taken anew, the
/// paths whose entries (with all below them) are replaced, and the bundles they reach.
struct SnapshotUpdate {
    struct Located: Hashable {
        let root: Int
        let path: String
    }

    typealias Entry = InputSnapshot.Entry

    let roots: [String]
    let racyWindow: Double
    let started = Date().timeIntervalSince1970
    /// The roots as absolute paths, standardized as the paths are.
    let absoluteRoots: [String]
    var fresh: [Located: Entry] = [:]
    /// Per root, the paths taken anew with all below them.
    var retaken: [Int: [String]] = [:]
    var touched = Set<String>()
    /// A path above the bundles changed: any of them may have.
    var everyBundle = false

    init(roots: [String], racyWindow: Double) {
        self.roots = roots
        self.racyWindow = racyWindow
        absoluteRoots = roots.map { $0.isEmpty ? "" : URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    mutating func record(_ root: Int, _ relative: String, _ status: FileSystem.Status) {
        let racy = status.changed > started - racyWindow
        fresh[Located(root: root, path: relative)] = Entry(
            root: root, path: relative, signature: status.signature,
            content: racy ? InputSnapshot.contentDigest(roots[root], relative, isDirectory: status.isDirectory) : nil)
    }

    /// Takes `path` (absolute, standardized) anew: the folders above it up to its root, and
    /// everything below it. False when it holds something a walk could not vouch for.
    mutating func look(at path: String) -> Bool {
        guard let root = absoluteRoots.indices.first(where: {
            !absoluteRoots[$0].isEmpty && (path == absoluteRoots[$0] || path.hasPrefix(absoluteRoots[$0] + "/"))
        }) else { return true }
        let relative = path == absoluteRoots[root] ? "" : String(path.dropFirst(absoluteRoots[root].count + 1))
        guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return true }
        if root == 0 {
            if let bundle = InputSnapshot.bundle(of: relative) {
                touched.insert(String(bundle))
            } else if relative.isEmpty || relative == "machines" {
                everyBundle = true
            }
        }
        // The folders above: an entry added or removed changes its folder's signature.
        var folder = relative
        while !folder.isEmpty {
            folder = (folder as NSString).deletingLastPathComponent
            guard let status = FileSystem.status(folder.isEmpty ? roots[root] : roots[root] + "/" + folder) else {
                // A folder removed with the path: it goes, with all that was below it (a removed
                // bundle must not make every later sync and build walk the whole site).
                if folder.isEmpty { return false }
                retaken[root, default: []].append(folder)
                continue
            }
            record(root, folder, status)
        }
        // The path itself, and below it, anew.
        retaken[root, default: []].append(relative)
        guard FileSystem.exists(path) else { return true }
        let prefix = relative.isEmpty ? "" : relative + "/"
        let complete = FileSystem.walk(path) { below, status in
            record(root, below.isEmpty ? relative : prefix + below, status)
        }
        if !complete {
            guard let status = FileSystem.status(path), !status.isDirectory else { return false }
            record(root, relative, status)
        }
        return true
    }

    /// The entries of `entries` the update does not replace, racy ones checked again; nil when
    /// one changed unreported, which makes the walk necessary.
    mutating func kept(_ entries: [Entry]) -> [Entry]? {
        let filter = RetakenFilter(retaken, roots: roots.count)
        let freshLengths = RetakenFilter.flags(fresh.keys.map { $0.path.utf8.count })
        var updated: [Entry] = []
        updated.reserveCapacity(entries.count + fresh.count)
        for entry in entries {
            let length = entry.path.utf8.count
            if filter.contains(entry, length: length) { continue }
            guard length >= freshLengths.count || !freshLengths[length]
                || fresh[Located(root: entry.root, path: entry.path)] == nil else { continue }
            guard let content = entry.content else {
                updated.append(entry)
                continue
            }
            // Racy entries that have left the window keep their signature alone (see `unchanged(at:)`):
            // in a long serve session they would otherwise stay racy, and their bundles would never
            // be taken from the content cache.
            let full = entry.path.isEmpty ? roots[entry.root] : roots[entry.root] + "/" + entry.path
            guard let status = FileSystem.status(full), status.signature == entry.signature else { return nil }
            let settled = status.changed < started - racyWindow
            updated.append(Entry(root: entry.root, path: entry.path, signature: entry.signature, content: settled ? nil : content))
            if settled, entry.root == 0, let bundle = InputSnapshot.bundle(of: entry.path) { touched.insert(String(bundle)) }
        }
        return updated
    }
}
