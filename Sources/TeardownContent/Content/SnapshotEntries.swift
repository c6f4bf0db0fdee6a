import TeardownBase

/// A snapshot's entries in one of three forms, each made from another when first asked for:
/// the stored form's lines (`<signature> [<content digest>] <root>/<path>`, a line an entry),
/// the parsed entries, and pieces. A walk makes entries; a check, and an update of the few
/// paths a sync filed, work on the lines as they were read from the build store: an entry
/// parsed into a String path was most of a one-comment sync's walk past its `stat` calls, and
/// held between rounds, most of the resident publisher's snapshot.
///
/// An update makes pieces: the runs of the bundles it did not touch stay in the bytes they
/// were read into, shared, and only the touched bundles' lines are written anew. Copying
/// every line into a new array faulted the whole snapshot in again for a one-comment sync,
/// and held it beside the lines it was copied from.
///
/// A snapshot checked row by row against the build store holds only the rows that differed
/// or are racy: the bundles found as stored are `left` there, and read back when asked for.
final class SnapshotEntries: Sendable {
    /// A run of lines with the bytes it lies in.
    struct Piece: Sendable {
        let bytes: [UInt8]
        let run: SnapshotLineIndex.Run

        var lines: ArraySlice<UInt8> { bytes[run.range] }
    }

    private struct State {
        var lines: [UInt8]?
        var entries: [InputSnapshot.Entry]?
        var index: SnapshotLineIndex?
        var pieces: [Piece]?
        /// Each bundle's pieces, by their place in `pieces`.
        var byBundle: [String: [Int]]?
    }

    private let rootCount: Int
    private let state: Locked<State>
    /// The bundles whose lines are in the build store, not here.
    let left: SnapshotLeftRows?

    init(entries: [InputSnapshot.Entry], rootCount: Int) {
        self.rootCount = rootCount
        state = Locked(State(entries: entries))
        left = nil
    }

    /// Lines known to parse (`SnapshotLine.each` read them all), with their index when known.
    init(lines: [UInt8], rootCount: Int, index: SnapshotLineIndex? = nil, left: SnapshotLeftRows? = nil) {
        self.rootCount = rootCount
        state = Locked(State(lines: lines, index: index))
        self.left = left
    }

    /// Pieces whose lines are known to parse.
    init(pieces: [Piece], rootCount: Int, left: SnapshotLeftRows? = nil) {
        self.rootCount = rootCount
        state = Locked(State(pieces: pieces))
        self.left = left
    }

    /// The lines of a bundle left in the store, as a piece of their own; nil when it is not
    /// left there, or its row is no longer the one the check vouched for.
    func fetched(_ bundle: String) -> Piece? {
        guard let lines = left?.lines(of: bundle, rootCount: rootCount) else { return nil }
        return Piece(bytes: lines, run: SnapshotLineIndex.Run(bundle: bundle, range: 0..<lines.count, racy: false))
    }

    /// Every run of lines held here with the bytes it lies in, in order.
    var pieces: [Piece] {
        if let pieces = state.withLock({ $0.pieces }) { return pieces }
        let (lines, index) = indexed
        return index.runs.map { Piece(bytes: lines, run: $0) }
    }

    /// The pieces of one bundle's lines, read back from the store if it was left there.
    func pieces(of bundle: String) -> [Piece] {
        if left?.signatures[bundle] != nil { return fetched(bundle).map { [$0] } ?? [] }
        let held = state.withLock { state -> [Piece]? in
            guard let pieces = state.pieces else { return nil }
            if state.byBundle == nil {
                var byBundle: [String: [Int]] = [:]
                for (position, piece) in pieces.enumerated() {
                    if let name = piece.run.bundle { byBundle[name, default: []].append(position) }
                }
                state.byBundle = byBundle
            }
            return (state.byBundle?[bundle] ?? []).map { pieces[$0] }
        }
        if let held { return held }
        // Their racy flag is not known here, and not asked for: it is the whole list's.
        let (lines, index) = indexed
        return (index.ranges[bundle] ?? []).map { Piece(bytes: lines, run: SnapshotLineIndex.Run(bundle: bundle, range: $0, racy: false)) }
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

    /// The entries of `pieces`, as they are stored.
    func entries(of pieces: [Piece]) -> [InputSnapshot.Entry] {
        var found: [InputSnapshot.Entry] = []
        for piece in pieces { _ = SnapshotLine.each(in: piece.bytes, piece.run.range, rootCount: rootCount) { found.append($0.entry()) } }
        return found
    }

    /// The lines held here: without those of the bundles left in the store.
    var lines: [UInt8] {
        state.withLock { state in
            if let lines = state.lines { return lines }
            if let pieces = state.pieces {
                // Laid end to end once something asks for every line (a stored form written
                // whole, or entries parsed): the index is known from the pieces' runs.
                var lines: [UInt8] = []
                lines.reserveCapacity(pieces.reduce(0) { $0 + $1.run.range.count })
                var runs: [SnapshotLineIndex.Run] = []
                for piece in pieces {
                    let start = lines.count
                    lines += piece.lines
                    runs.append(SnapshotLineIndex.Run(bundle: piece.run.bundle, range: start..<lines.count, racy: piece.run.racy))
                }
                state.lines = lines
                state.index = SnapshotLineIndex(runs: runs)
                state.pieces = nil
                state.byBundle = nil
                return lines
            }
            let lines = InputSnapshot.lines(state.entries ?? [])
            state.lines = lines
            // The entries are let go: the lines are a third of their size, and a cold build
            // held both through its render.
            state.entries = nil
            return lines
        }
    }

    /// The lines held here and those of the bundles left in the store but `besides`, read
    /// back; nil when a left row to be read back is gone.
    func lines(besides: Set<String>) -> [UInt8]? {
        var all = lines
        for bundle in (left?.signatures.keys).map({ $0.sorted() }) ?? [] where !besides.contains(bundle) {
            guard let piece = fetched(bundle) else { return nil }
            all += piece.bytes
        }
        return all
    }

    /// Every line, those of the bundles left in the store read back (were a left row gone, the
    /// held lines alone: only tests and the stored form's file ask for every line).
    var allLines: [UInt8] { lines(besides: []) ?? lines }

    /// The entries but those of the bundles `besides` left in the store; nil when a left row
    /// to be read back is gone.
    func entries(besides: Set<String>) -> [InputSnapshot.Entry]? {
        guard let left, !left.signatures.isEmpty else { return entries }
        return lines(besides: besides).flatMap { InputSnapshot.entries(in: $0, 0..<$0.count, rootCount: rootCount) }
    }

    var entries: [InputSnapshot.Entry] {
        if let entries = state.withLock({ $0.entries }) { return entries }
        let lines = allLines
        return state.withLock { state in
            if let entries = state.entries { return entries }
            // The lines parsed when they were read or written; a line that would not is left out.
            let entries = InputSnapshot.entries(in: lines, 0..<lines.count, rootCount: rootCount) ?? []
            state.entries = entries
            return entries
        }
    }

    /// The lines, unless the snapshot holds only entries (which are not turned into lines).
    var heldLines: [UInt8]? {
        state.withLock { $0.lines == nil && $0.pieces == nil } ? nil : allLines
    }

    /// How many arrays the pieces lie in: an update per round of `sync --follow` adds one.
    var bufferCount: Int {
        state.withLock { state in
            guard let pieces = state.pieces else { return 1 }
            return Set(pieces.map { $0.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }).count
        }
    }
}
