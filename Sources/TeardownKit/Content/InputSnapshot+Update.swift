import Foundation

/// A snapshot brought up to date by the paths known to have changed, instead of by a walk:
/// `teardown sync` knows the files it filed, `teardown serve` what inotify reported.
extension InputSnapshot {
    /// The snapshot a build stored at `path`, as it was written (nothing is checked against
    /// the disk); nil when it is missing, cut short, or for other roots or settings.
    static func stored(at path: String, roots: [String], key: ContentDigest) -> (InputSnapshot, Record)? {
        guard let data = FileManager.default.contents(atPath: path), let record = record(in: data, roots: roots, key: key)
        else { return nil }
        let bytes = [UInt8](data)
        guard let marker = bytes.firstRange(of: Array("\nentries\n".utf8)),
              let trailer = bytes[..<(bytes.count - 1)].lastIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        // Cut from the bytes, on all cores: split into Strings line by line, reading a
        // 10,000-part snapshot took 0.4 s of every build `serve` made after an edit.
        let parsed = ParallelMap.map(lineChunks(bytes, marker.upperBound..<(trailer + 1))) { range in
            parseEntries(bytes, range, rootCount: roots.count)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(parsed.reduce(0) { $0 + ($1?.count ?? 0) })
        for chunk in parsed {
            guard let chunk else { return nil }
            entries += chunk
        }
        return (InputSnapshot(key: key, roots: roots, entries: entries), record)
    }

    /// Entry lines, `<signature> [<content digest>] <root>/<path>`, as entries; nil when one
    /// does not parse.
    private static func parseEntries(_ bytes: [UInt8], _ range: Range<Int>, rootCount: Int) -> [Entry]? {
        var entries: [Entry] = []
        var index = range.lowerBound
        while index < range.upperBound {
            guard let end = bytes[index..<range.upperBound].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let line = bytes[index..<end]
            index = end + 1
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let signature = hexValue(fields[0]) else { return nil }
            // Located paths always hold a slash after the root number; digests never do.
            let hasDigest = fields.count == 3 && fields[1].count == 32 && !fields[1].contains(UInt8(ascii: "/"))
            var content: ContentDigest?
            if hasDigest {
                let digest = fields[1]
                guard let high = hexValue(digest.prefix(16)), let low = hexValue(digest.suffix(16)) else { return nil }
                content = ContentDigest(high: high, low: low)
            }
            let located = hasDigest ? fields[2] : bytes[fields[1].startIndex..<end]
            guard let slash = located.firstIndex(of: UInt8(ascii: "/")), let root = hexValue(located[..<slash], radix: 10),
                  root < rootCount
            else { return nil }
            entries.append(Entry(root: Int(root), path: String(decoding: located[(slash + 1)...], as: UTF8.self),
                                 signature: signature, content: content))
        }
        return entries
    }

    /// A number written in ASCII digits of `radix` (16 or 10), at most 16 of them.
    private static func hexValue(_ digits: ArraySlice<UInt8>, radix: UInt64 = 16) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            let number: UInt64
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): number = UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: number = UInt64(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: number = UInt64(digit - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + number
        }
        return value
    }

    /// This snapshot with `paths` (absolute) looked at again: each one, the folders above it
    /// up to its root, and everything below it when it is a folder. A path that is gone takes
    /// what was below it along. Paths outside the roots, and hidden ones, are not inputs.
    /// Nil when a path holds something a walk could not vouch for.
    ///
    /// Entries the paths do not reach are kept as they are, in one pass: a sync files a comment
    /// or two into a snapshot of tens of thousands of entries. So are the bundles' signatures,
    /// but for the bundles the paths reach.
    func updating(_ paths: [String], racyWindow: Double = racyWindow) -> InputSnapshot? {
        let started = Date().timeIntervalSince1970
        struct Located: Hashable {
            let root: Int
            let path: String
        }
        var fresh: [Located: Entry] = [:]
        // Per root, the paths taken anew with all below them.
        var retaken: [Int: [String]] = [:]
        var touched = Set<String>(), everyBundle = false
        func record(_ root: Int, _ relative: String, _ status: FileSystem.Status) {
            let racy = status.changed > started - racyWindow
            fresh[Located(root: root, path: relative)] = Entry(
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
            if root == 0 {
                // Above the bundles (the content folder, machines/), any of them may have changed.
                if let bundle = Self.bundle(of: relative) {
                    touched.insert(String(bundle))
                } else if relative.isEmpty || relative == "machines" {
                    everyBundle = true
                }
            }
            // The folders above: an entry added or removed changes its folder's signature.
            var folder = relative
            while !folder.isEmpty {
                folder = (folder as NSString).deletingLastPathComponent
                guard let status = FileSystem.status(folder.isEmpty ? roots[root] : roots[root] + "/" + folder) else { return nil }
                record(root, folder, status)
            }
            // The path itself, and below it, anew.
            retaken[root, default: []].append(relative)
            guard FileSystem.exists(path) else { continue }
            let prefix = relative.isEmpty ? "" : relative + "/"
            let complete = FileSystem.walk(path) { below, status in
                record(root, below.isEmpty ? relative : prefix + below, status)
            }
            if !complete {
                guard let status = FileSystem.status(path), !status.isDirectory else { return nil }
                record(root, relative, status)
            }
        }
        let below = retaken.mapValues { $0.map { $0.isEmpty ? "" : $0 + "/" } }
        var updated: [Entry] = []
        updated.reserveCapacity(entries.count + fresh.count)
        for entry in entries {
            if let retaken = retaken[entry.root],
               retaken.contains(entry.path) || below[entry.root]!.contains(where: { entry.path.hasPrefix($0) }) {
                continue
            }
            guard fresh[Located(root: entry.root, path: entry.path)] == nil else { continue }
            guard let content = entry.content else {
                updated.append(entry)
                continue
            }
            // Racy entries that have left the window keep their signature alone (see `unchanged(at:)`):
            // in a long serve session they would otherwise stay racy, and their bundles would never
            // be taken from the content cache. One that changed unreported makes the walk necessary.
            let full = entry.path.isEmpty ? roots[entry.root] : roots[entry.root] + "/" + entry.path
            guard let status = FileSystem.status(full), status.signature == entry.signature else { return nil }
            let settled = status.changed < started - racyWindow
            updated.append(Entry(root: entry.root, path: entry.path, signature: entry.signature, content: settled ? nil : content))
            if settled, entry.root == 0, let bundle = Self.bundle(of: entry.path) { touched.insert(String(bundle)) }
        }
        // The entries kept were checked when they were taken.
        guard !fresh.keys.contains(where: { $0.path.utf8.contains(UInt8(ascii: "\n")) }) else { return nil }
        updated += fresh.values
        var snapshot = InputSnapshot(key: key, roots: roots, entries: updated)
        if !everyBundle, var signatures {
            // The touched bundles' signatures, from their entries now; a bundle that is gone has none.
            var entriesByBundle: [String: [Entry]] = [:]
            for entry in updated where entry.root == 0 {
                if let bundle = Self.bundle(of: entry.path), touched.contains(String(bundle)) {
                    entriesByBundle[String(bundle), default: []].append(entry)
                }
            }
            for bundle in touched { signatures.set(bundle, entriesByBundle[bundle].map(Self.signature(of:))) }
            snapshot.signatures = signatures
        }
        return snapshot
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
