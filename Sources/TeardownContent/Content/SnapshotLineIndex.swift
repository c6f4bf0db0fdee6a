import Foundation

/// Where each bundle's lines lie in a snapshot's stored-form lines, and the lines of no
/// bundle (the site's settings, its manual, the themes), found in one pass that parses no
/// signature: the build asks for one bundle's part entries, the touched bundles'
/// signatures and the rows of the bundles it writes, each of which was a pass over every
/// line of its own.
struct SnapshotLineIndex: Sendable {
    struct Run: Sendable {
        /// The bundle its lines are in; nil for lines of none.
        let bundle: String?
        let range: Range<Int>
        /// Whether a line of it holds a content digest (a racy entry).
        let racy: Bool
    }

    /// Runs of lines of one bundle, in the order they lie.
    let runs: [Run]
    /// Each bundle's runs' ranges.
    let ranges: [String: [Range<Int>]]

    init(_ lines: [UInt8]) { self.init(runs: Self.runs(of: lines, in: 0..<lines.count)) }

    /// The index of lines whose runs are known (`SnapshotUpdate.kept` copies most of them
    /// from the snapshot it updates): runs of one bundle side by side may stay apart.
    init(runs: [Run]) {
        var ranges: [String: [Range<Int>]] = [:]
        for run in runs { if let name = run.bundle { ranges[name, default: []].append(run.range) } }
        self.runs = runs
        self.ranges = ranges
    }

    /// The runs of the lines of `lines` in `range` (whole lines), their ranges in `lines`.
    static func runs(of lines: [UInt8], in range: Range<Int>) -> [Run] {
        var runs: [Run] = []
        lines.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var current: UnsafeBufferPointer<UInt8>? = nil, runStart = range.lowerBound, start = range.lowerBound, racy = false
            func close(at end: Int) {
                guard end > runStart else { return }
                runs.append(Run(bundle: current.map { String(decoding: $0, as: UTF8.self) }, range: runStart..<end, racy: racy))
            }
            while start < range.upperBound {
                let found = memchr(base + start, Int32(UInt8(ascii: "\n")), range.upperBound - start)
                let end = found.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? range.upperBound
                let (bundle, digest) = Self.fields(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                if !Self.same(bundle, current) {
                    close(at: start)
                    current = bundle
                    runStart = start
                    racy = false
                }
                racy = racy || digest
                start = end + 1
            }
            close(at: min(start, range.upperBound))
        }
        return runs
    }

    private static func same(_ a: UnsafeBufferPointer<UInt8>?, _ b: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.count == b.count && memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    /// The bundle of one line, `<signature> [<digest>] 0/machines/<bundle>[/...]`, found by where
    /// its fields must lie (a signature is 16 digits, a digest 32, a root's number one digit),
    /// and whether the line holds a digest.
    private static func fields(_ line: UnsafeBufferPointer<UInt8>) -> (bundle: UnsafeBufferPointer<UInt8>?, digest: Bool) {
        let space = UInt8(ascii: " "), slash = UInt8(ascii: "/")
        var path = 17
        guard path + 1 < line.count, line[path - 1] == space else { return (nil, false) }
        let digest = line[path + 1] != slash && path + 33 < line.count && line[path + 32] == space
        if digest { path += 33 }
        guard path + 1 < line.count, line[path] == UInt8(ascii: "0"), line[path + 1] == slash else { return (nil, digest) }
        let start = path + 2 + machines.count
        guard start < line.count, memcmp(line.baseAddress! + path + 2, machines, machines.count) == 0 else { return (nil, digest) }
        var end = start
        while end < line.count, line[end] != slash { end += 1 }
        return (end == start ? nil : UnsafeBufferPointer(rebasing: line[start..<end]), digest)
    }

    private static let machines = Array("machines/".utf8)
}
