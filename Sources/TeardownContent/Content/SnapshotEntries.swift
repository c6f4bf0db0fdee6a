import TeardownBase

/// A snapshot's entries in either of two forms, each made from the other when first asked
/// for: the stored form's lines (`<signature> [<content digest>] <root>/<path>`, a line an
/// entry) and the parsed entries. A walk makes entries; a check, and an update of the few
/// paths a sync filed, work on the lines as they were read from the build store: an entry
/// parsed into a String path was most of a one-comment sync's walk past its `stat` calls, and
/// held between rounds, most of the resident publisher's snapshot.
final class SnapshotEntries: Sendable {
    private let rootCount: Int
    private let state: Locked<(lines: [UInt8]?, entries: [InputSnapshot.Entry]?, index: SnapshotLineIndex?)>

    init(entries: [InputSnapshot.Entry], rootCount: Int) {
        self.rootCount = rootCount
        state = Locked((nil, entries, nil))
    }

    /// Lines known to parse (`SnapshotLine.each` read them all), with their index when known.
    init(lines: [UInt8], rootCount: Int, index: SnapshotLineIndex? = nil) {
        self.rootCount = rootCount
        state = Locked((lines, nil, index))
    }

    /// The lines with where each bundle's lie.
    var indexed: (lines: [UInt8], index: SnapshotLineIndex) {
        let lines = self.lines
        return state.withLock { state in
            if let index = state.index { return (lines, index) }
            let index = SnapshotLineIndex(lines)
            state.index = index
            return (lines, index)
        }
    }

    /// The entries of the lines in `ranges` (of `lines`), as they are stored.
    func entries(of lines: [UInt8], in ranges: [Range<Int>]) -> [InputSnapshot.Entry] {
        var found: [InputSnapshot.Entry] = []
        for range in ranges { _ = SnapshotLine.each(in: lines, range, rootCount: rootCount) { found.append($0.entry()) } }
        return found
    }

    var lines: [UInt8] {
        state.withLock { state in
            if let lines = state.lines { return lines }
            let lines = InputSnapshot.lines(state.entries ?? [])
            state.lines = lines
            // The entries are let go: the lines are a third of their size, and a cold build
            // held both through its render.
            state.entries = nil
            return lines
        }
    }

    var entries: [InputSnapshot.Entry] {
        state.withLock { state in
            if let entries = state.entries { return entries }
            let lines = state.lines ?? []
            // The lines parsed when they were read or written; a line that would not is left out.
            let entries = InputSnapshot.entries(in: lines, 0..<lines.count, rootCount: rootCount) ?? []
            state.entries = entries
            return entries
        }
    }

    /// The lines, when the snapshot holds them already (no entries are turned into lines).
    var heldLines: [UInt8]? { state.withLock { $0.lines } }
}
