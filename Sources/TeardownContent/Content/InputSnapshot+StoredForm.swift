import Dispatch
import Foundation
import TeardownBase

extension InputSnapshot {
    /// What a build left: its inputs, the tree it published and what it reported.
    package struct Record: Sendable {
        package let tree: String
        package let pages: Int
        package let files: Int
        package let warnings: [Diagnostic]

        package init(tree: String, pages: Int, files: Int, warnings: [Diagnostic]) {
            self.tree = tree
            self.pages = pages
            self.files = files
            self.warnings = warnings
        }
    }

    package func serialized(_ record: Record) -> Data {
        var bytes = head(record)
        bytes += Self.entriesMarker.dropFirst()
        let lines = self.lines
        bytes += lines
        // A file cut short must not vouch for the entries it lost.
        bytes += "end \(ByteSearch.count(UInt8(ascii: "\n"), in: lines, 0..<lines.count))\n".utf8
        return Data(bytes)
    }

    /// The stored form's lines before its entries: the key, the record and the roots.
    package func head(_ record: Record) -> [UInt8] {
        var text = Self.header + "\nkey \(key)\ntree \(record.tree)\ncounts \(record.pages) \(record.files)\n"
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for warning in record.warnings {
            // A Diagnostic is strings and numbers: encoding it cannot fail.
            let json = (try? encoder.encode(warning)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            text += "warning \(json)\n"
        }
        for root in roots { text += "root \(root)\n" }
        return Array(text.utf8)
    }

    /// The stored form of `entries`, a line each, as bytes appended in place: a String built
    /// piece by piece costs more than the publish step's other work.
    package static func lines(_ entries: some Collection<Entry>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 80)
        let digits = Array("0123456789abcdef".utf8)
        func appendHex(_ value: UInt64) {
            for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int((value >> UInt64(shift)) & 0xf)]) }
        }
        for entry in entries {
            appendHex(entry.signature)
            if let content = entry.content {
                bytes.append(UInt8(ascii: " "))
                appendHex(content.high)
                appendHex(content.low)
            }
            bytes.append(UInt8(ascii: " "))
            bytes += String(entry.root).utf8
            bytes.append(UInt8(ascii: "/"))
            bytes += entry.path.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// The stored form's start, from a head (`head`), with room for `capacity` bytes of lines
    /// to be appended; `storedFormEnd` closes it.
    package static func storedFormStart(head: [UInt8], capacity: Int) -> [UInt8] {
        var bytes = head
        bytes.reserveCapacity(head.count + capacity + 64)
        bytes += entriesMarker.dropFirst()
        return bytes
    }

    /// Closes a stored form begun with `storedFormStart` whose lines hold `count` entries.
    package static func storedFormEnd(_ bytes: inout [UInt8], count: Int) {
        bytes += "end \(count)\n".utf8
    }

    /// What a stored snapshot says of the inputs on disk now.
    package enum Check {
        /// Nothing differs from the build that stored it.
        case unchanged(Record)
        /// These paths (absolute) differ: files and folders whose `stat` signature or content
        /// changed, added or removed entries showing as their folders' changes. Applied to the
        /// stored snapshot (`stored`, read from the same bytes) with `updating`, they give what
        /// a new walk would.
        case changed([String], stored: InputSnapshot)
    }

    /// The record stored at `path`, if the inputs under `roots` and the `key` are what they
    /// were when it was written; nil on any difference or doubt.
    package static func unchanged(at path: String, roots: [String], key: ContentDigest, racyWindow: Double? = nil,
                          tree: (String) -> Bool = { _ in true }) -> Record? {
        if case .unchanged(let record) = check(at: path, roots: roots, key: key, racyWindow: racyWindow, tree: tree) {
            return record
        }
        return nil
    }

    /// Checks every entry of the snapshot stored at `path` against the disk; nil when it is
    /// missing, damaged, or for other roots, settings or tree.
    ///
    /// Racy entries that have since left the racy window are stored again without their
    /// content digest, as git refreshes racily clean index entries: their `stat` signature now
    /// vouches for them, and otherwise every later build would read and hash them again (as a
    /// catalog built right after a checkout did).
    package static func check(at path: String, roots: [String], key: ContentDigest, racyWindow: Double? = nil,
                      tree: (String) -> Bool = { _ in true }) -> Check? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return check([UInt8](data), roots: roots, key: key, racyWindow: racyWindow, tree: tree) { refreshed in
            // Losing the refresh costs only time; a kill leaves the old file or the new one.
            _ = FileSystem.replaceFile(Data(refreshed), at: path)
        }
    }

    /// `check` of the stored form `bytes`; `refresh` is given the bytes with the settled
    /// entries' content digests left out, when there are any.
    package static func check(_ bytes: consuming [UInt8], roots: [String], key: ContentDigest, racyWindow: Double? = nil,
                      tree: (String) -> Bool = { _ in true }, refresh: ([UInt8]) -> Void) -> Check? {
        let window = racyWindow ?? Self.racyWindow(for: roots)
        guard let (record, settled, changed) = read(bytes, roots: roots, key: key, tree: tree,
                                                    settledBefore: Date().timeIntervalSince1970 - window)
        else { return nil }
        if !changed.isEmpty {
            // Every line parsed when it was checked.
            guard let lines = entryLines(bytes) else { return nil }
            var bytes = consume bytes
            keepLines(&bytes, lines, cutting: [])
            return .changed(changed, stored: InputSnapshot(key: key, roots: roots, lines: bytes))
        }
        if !settled.isEmpty {
            var bytes = consume bytes
            keepLines(&bytes, 0..<bytes.count, cutting: settled)
            refresh(bytes)
        }
        return .unchanged(record)
    }

    /// The record in `bytes`, whole and for these roots and key. With `settledBefore`, only if
    /// every entry is as it is on disk, with the byte ranges of the content digests of racy
    /// entries that settled before that time.
    package static func read(_ bytes: [UInt8], roots: [String], key: ContentDigest, tree expected: (String) -> Bool,
                             settledBefore: Double?)
        -> (record: Record, settled: [Range<Int>], changed: [String])? {
        guard let lines = entryLines(bytes) else { return nil }
        let trailer = lines.upperBound - 1
        let last = String(decoding: bytes[(trailer + 1)..<(bytes.count - 1)], as: UTF8.self)
        guard last.hasPrefix("end "), let count = Int(last.dropFirst(4)),
              ByteSearch.count(UInt8(ascii: "\n"), in: bytes, lines) == count
        else { return nil }
        let head = String(decoding: bytes[..<(lines.lowerBound - Self.entriesMarker.count)], as: UTF8.self).split(separator: "\n").map(String.init)
        guard head.first == header, head.contains("key \(key)"),
              head.filter({ $0.hasPrefix("root ") }).map({ String($0.dropFirst(5)) }) == roots,
              let tree = head.first(where: { $0.hasPrefix("tree ") })?.dropFirst(5), expected(String(tree)),
              let counts = head.first(where: { $0.hasPrefix("counts ") })?.split(separator: " "), counts.count == 3,
              let pages = Int(counts[1]), let files = Int(counts[2])
        else { return nil }
        let decoder = JSONDecoder()
        var warnings: [Diagnostic] = []
        for line in head where line.hasPrefix("warning ") {
            // A warning line that does not decode makes the stored form unreadable: nil starts over.
            guard let warning = try? decoder.decode(Diagnostic.self, from: Data(line.dropFirst(8).utf8)) else { return nil }
            warnings.append(warning)
        }
        var settled: [Range<Int>] = [], changed: [String] = []
        if let settledBefore {
            guard let found = verify(bytes, lines, roots: roots, settledBefore: settledBefore)
            else { return nil }
            (settled, changed) = found
        }
        return (Record(tree: String(tree), pages: pages, files: files, warnings: warnings), settled, changed)
    }

    /// Where the entry lines of the stored form lie: after the "entries" line, before the
    /// closing "end" line; nil when the bytes have neither.
    package static let entriesMarker = Array("\nentries\n".utf8)

    package static func entryLines(_ bytes: [UInt8]) -> Range<Int>? {
        guard let marker = bytes.firstRange(of: entriesMarker), bytes.last == UInt8(ascii: "\n"),
              let trailer = bytes[..<(bytes.count - 1)].lastIndex(of: UInt8(ascii: "\n")), trailer + 1 >= marker.upperBound
        else { return nil }
        return marker.upperBound..<(trailer + 1)
    }

    /// Checks every entry line of `bytes` in `lines`, on all cores: the ranges of the content
    /// digests whose entries settled before `settledBefore`, and the paths that differ; nil
    /// when a line cannot be read.
    package static func verify(_ bytes: [UInt8], _ lines: Range<Int>, roots: [String], settledBefore: Double)
        -> (settled: [Range<Int>], changed: [String])? {
        let prefixes = roots.map { Array($0.utf8) + [UInt8(ascii: "/")] }
        // Entries are looked up from their root, opened once, rather than by their whole path:
        // fewer folders for the kernel to resolve on every `stat`.
        let folders = roots.map(FileSystem.openFolder)
        defer { folders.forEach(FileSystem.closeFolder) }
        let results = ParallelMap.map(lineChunks(bytes, lines)) { range in
            verifyLines(bytes, range, prefixes: prefixes, folders: folders, roots: roots, settledBefore: settledBefore)
        }
        var settled: [Range<Int>] = [], changed: [String] = []
        for result in results {
            guard let result else { return nil }
            settled += result.settled
            changed += result.changed
        }
        return (settled, changed)
    }

    /// `lines` split at line ends into about as many chunks as there are cores, times four for balance.
    package static func lineChunks(_ bytes: [UInt8], _ lines: Range<Int>) -> [Range<Int>] {
        let chunkCount = max(1, ProcessInfo.processInfo.activeProcessorCount * 4)
        var bounds = [lines.lowerBound]
        let step = max(1, lines.count / chunkCount)
        var cursor = lines.lowerBound + step
        while cursor < lines.upperBound {
            guard let end = bytes[cursor..<lines.upperBound].firstIndex(of: UInt8(ascii: "\n")) else { break }
            bounds.append(end + 1)
            cursor = end + 1 + step
        }
        if bounds.last != lines.upperBound { bounds.append(lines.upperBound) }
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    /// One chunk of entry lines, each checked against the disk.
    static func verifyLines(_ bytes: [UInt8], _ range: Range<Int>, prefixes: [[UInt8]], folders: [Int32],
                                    roots: [String], settledBefore: Double) -> (settled: [Range<Int>], changed: [String])? {
        var path: [UInt8] = []
        var settled: [Range<Int>] = [], changed: [String] = []
        let complete = SnapshotLine.each(in: bytes, range, rootCount: roots.count) { line in
            // Every difference is noted, not only the first: the build then looks again at those
            // paths alone, instead of walking every input a second time.
            func differs() {
                let prefix = prefixes[line.root]
                changed.append(String(decoding: line.relative.isEmpty ? Array(prefix.dropLast()) : prefix + line.relative,
                                      as: UTF8.self))
            }
            // A root itself, or one that could not be opened, is looked at by its whole path.
            let folder = line.relative.isEmpty ? -1 : folders[line.root]
            path.removeAll(keepingCapacity: true)
            if folder < 0 { path += line.relative.isEmpty ? prefixes[line.root].dropLast() : prefixes[line.root][...] }
            path += line.relative
            path.append(0)
            let status = path.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    folder < 0 ? FileSystem.status($0.baseAddress!) : FileSystem.status(in: folder, $0.baseAddress!)
                }
            }
            if line.signature == missing, line.relative.isEmpty {
                if status != nil { differs() }
                return
            }
            guard let status, status.signature == line.signature else { return differs() }
            if let content = line.content, let contentRange = line.contentRange {
                let relative = String(decoding: line.relative, as: UTF8.self)
                guard contentDigest(roots[line.root], relative, isDirectory: status.isDirectory) == content else { return differs() }
                if status.changed < settledBefore { settled.append(contentRange) }
            }
        }
        return complete ? (settled, changed) : nil
    }

    /// `bytes` in `range` without the byte ranges `cut` (sorted or not, all within `range`).
    /// Cuts `bytes` down, in place, to `range` without the pieces `cut` from it (settled
    /// entries' content digests): the stored form read from the build store is the only copy
    /// of a snapshot's lines (a new array for them was faulted in page by page, the whole
    /// snapshot again).
    static func keepLines(_ bytes: inout [UInt8], _ range: Range<Int>, cutting cut: [Range<Int>]) {
        var kept = 0
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var from = range.lowerBound
            func move(upTo end: Int) {
                if end > from { memmove(base + kept, base + from, end - from) }
                kept += max(0, end - from)
            }
            for piece in cut.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                move(upTo: piece.lowerBound)
                from = piece.upperBound
            }
            move(upTo: range.upperBound)
        }
        bytes.removeLast(bytes.count - kept)
    }
}
