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

    /// The lines of `pieces` the update does not replace, racy ones checked again (and
    /// written without their content digest once settled); nil when one changed unreported,
    /// which makes the walk necessary.
    ///
    /// A piece of a bundle no path reaches, without a racy line, is carried as it is: not
    /// copied, nor parsed. The others' lines kept are `written` into one array, `runs` telling
    /// where each bundle's lie in it.
    mutating func kept(_ pieces: [SnapshotEntries.Piece], rootCount: Int)
        -> (carried: [SnapshotEntries.Piece], written: [UInt8], runs: [SnapshotLineIndex.Run])? {
        var carried: [SnapshotEntries.Piece] = [], written: [UInt8] = [], runs: [SnapshotLineIndex.Run] = []
        carried.reserveCapacity(pieces.count)
        let reached = touched
        for piece in pieces {
            if !everyBundle, !piece.run.racy, let bundle = piece.run.bundle, !reached.contains(bundle) {
                carried.append(piece)
            } else {
                let start = written.count
                guard keep(piece.bytes, piece.run.range, rootCount: rootCount, into: &written) else { return nil }
                runs += SnapshotLineIndex.runs(of: written, in: start..<written.count)
            }
        }
        return (carried, written, runs)
    }

    private var filter: RetakenFilter?
    private var freshLengths: [Bool] = []

    /// The lines of `range` the update does not replace, appended to `updated`; false when one
    /// changed unreported.
    private mutating func keep(_ lines: [UInt8], _ range: Range<Int>, rootCount: Int, into updated: inout [UInt8]) -> Bool {
        if filter == nil {
            filter = RetakenFilter(retaken, roots: roots.count)
            freshLengths = RetakenFilter.flags(fresh.keys.map { $0.path.utf8.count })
        }
        let filter = filter!, freshLengths = freshLengths, fresh = fresh, roots = roots
        var unreported = false, settling: [String] = []
        let complete = SnapshotLine.each(in: lines, range, rootCount: rootCount) { line in
            let length = line.relative.count
            guard !unreported, !filter.contains(root: line.root, relative: line.relative) else { return }
            if length < freshLengths.count, freshLengths[length],
               fresh[Located(root: line.root, path: String(decoding: line.relative, as: UTF8.self))] != nil {
                return
            }
            guard let contentRange = line.contentRange else {
                updated += lines[line.range]
                return
            }
            // Racy entries that have left the window keep their signature alone (see `unchanged(at:)`):
            // in a long serve session they would otherwise stay racy, and their bundles would never
            // be taken from the content cache.
            let path = String(decoding: line.relative, as: UTF8.self)
            let full = path.isEmpty ? roots[line.root] : roots[line.root] + "/" + path
            guard let status = FileSystem.status(full), status.signature == line.signature else {
                unreported = true
                return
            }
            guard status.changed < started - racyWindow else {
                updated += lines[line.range]
                return
            }
            updated += lines[line.range.lowerBound..<contentRange.lowerBound]
            updated += lines[contentRange.upperBound..<line.range.upperBound]
            if line.root == 0, let bundle = InputSnapshot.bundle(of: path) { settling.append(String(bundle)) }
        }
        touched.formUnion(settling)
        return complete && !unreported
    }
}
