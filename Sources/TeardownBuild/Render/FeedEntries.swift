import Foundation
import TeardownBase
import TeardownContent

/// The site feed's items as the build that last wrote the feed chose them, each with its
/// entry's text and what the entry read. The site's feed lists the newest fifty comments and
/// photos of the whole site, and comments are dated by the day: each comment synced made the
/// feed again from every machine commented on that day, each head decoded and each comment
/// rendered (most of a one-comment sync's render step, Benchmarks/README.md). Now a build
/// makes the items of the machines whose feed unit changed, and takes the others' from here.
///
/// The items kept of the machines that did not change are the newest of theirs (each beats
/// every item of theirs that was left out), so the new list is those and the changed machines'
/// items, the newest fifty, as long as none of it ranks below the last item kept: a machine's
/// item that was left out could rank there. Otherwise the list is chosen from every machine.
///
/// The file names a token that the publish of the build that wrote it records in the store
/// (`BuildStore.feedToken`): a list whose token the store holds is the published feed's, and
/// since the feed reads every machine's feed unit, every later publish that changed one of them
/// made the feed, and its list, again. So a machine's items are still good unless this build
/// finds one of the units they read changed against the store (`Outputs.changedUnits`): no
/// machine's digest is read to say so. One file per output, since the entries hold absolute
/// URLs (`MemoFile`).
package final class FeedEntries: @unchecked Sendable {
    /// An item of the feed: where it is in the catalog, what orders it, and its entry.
    package struct Item: Sendable {
        package let machine: Int
        package let part: Int?
        package let id: String
        package let date: ISODate
        package let text: String
        /// What the entry read besides the machine's feed unit.
        package let units: Set<InputUnit>
    }

    /// What the memo gives this build.
    package struct Kept: Sendable {
        /// The items of the machines that did not change, with the same reads as then.
        package let items: [Item]
        /// The machines whose items are made again.
        package let changed: [Int]
        /// Whether the list then held every item of the site.
        package let complete: Bool
    }

    /// A unit an entry read, named from its machine, so that it outlives the machine's number.
    private enum Relative: Hashable {
        case settings
        case machine(UInt8)
        case part(Int, UInt8)

        init?(_ unit: InputUnit, of machine: Int) {
            switch unit {
            case .settings: self = .settings
            case .machine(machine, let aspect): self = .machine(aspect.rawValue)
            case .part(machine, let part, let aspect): self = .part(part, aspect.rawValue)
            default: return nil
            }
        }

        func unit(of machine: Int) -> InputUnit? {
            switch self {
            case .settings: .settings
            case .machine(let aspect): InputUnit.MachineAspect(rawValue: aspect).map { .machine(machine, $0) }
            case .part(let part, let aspect): InputUnit.PartAspect(rawValue: aspect).map { .part(machine, part, $0) }
            }
        }
    }

    private struct Stored {
        let token: String
        let complete: Bool
        let items: [(slug: String, part: Int?, id: String, date: ISODate, units: [Relative], text: String)]
    }

    private let file: String
    private let slugs: [String]
    private let naming: @Sendable (InputUnit) -> String
    /// The keys of the units whose digests changed since the last publish; nil when not known.
    private let changed: Set<String>?
    private let stored: Stored?
    private let counters: BuildCounters
    /// The list this build chose: what `save` writes.
    private let chosen = Locked<(items: [Item], complete: Bool)?>(nil)

    /// `slugs` are the catalog's machines in order; `changed` the keys of the units whose digests
    /// differ from the store's (nil: unknown, and no item is taken); `published` the token the
    /// store holds. Not `trusting` the file (a full build), every item is made.
    package init(file: String, slugs: [String], naming: @escaping @Sendable (InputUnit) -> String, changed: Set<String>?,
                 published: String?, trusting: Bool = true, counters: BuildCounters = .none) {
        self.file = file
        self.slugs = slugs
        self.naming = naming
        self.changed = changed
        self.counters = counters
        stored = trusting ? Self.read(file).flatMap { !$0.token.isEmpty && $0.token == published ? $0 : nil } : nil
    }

    /// The items of the machines that did not change since the list was published, and the
    /// machines that did; nil when there is none, or the settings or the machines are others.
    package func kept() -> Kept? {
        guard let stored, let changed, !changed.contains(naming(.settings)), !changed.contains(naming(.machineList)) else {
            return nil
        }
        let index = Dictionary(slugs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var items: [(item: Item, units: [String])] = []
        for item in stored.items {
            guard let machine = index[item.slug] else { return nil }
            let units = item.units.compactMap { $0.unit(of: machine) }
            guard units.count == item.units.count else { return nil }
            items.append((Item(machine: machine, part: item.part, id: item.id, date: item.date, text: item.text, units: Set(units)),
                          units.map(naming)))
        }
        var changedMachines = Set(slugs.indices.filter { changed.contains(naming(.machine($0, .feed))) })
        for (item, units) in items where units.contains(where: changed.contains) { changedMachines.insert(item.machine) }
        return Kept(items: items.map(\.item).filter { !changedMachines.contains($0.machine) }, changed: changedMachines.sorted(),
                    complete: stored.complete)
    }

    /// The list this build's feed holds, newest first, of which it made `made` items;
    /// `complete` when it is every item of the site.
    package func keep(_ items: [Item], made: Int, complete: Bool) {
        counters.count(.feedItemsMade, by: made)
        chosen.withLock { $0 = (items, complete) }
    }

    /// Writes the list kept under a new token, which the build's publish records (nil: the feed
    /// was not made). A list with an item that read what cannot be named from its machine is no
    /// memo: the file is removed, and the token is empty, which no file holds, so that no later
    /// build takes a list this one did not publish.
    package func save() -> String? {
        guard let (items, complete) = chosen.withLock({ $0 }) else { return nil }
        let relative = items.map { item in item.units.compactMap { Relative($0, of: item.machine) } }
        guard zip(items, relative).allSatisfy({ $0.units.count == $1.count }) else {
            MemoFile.forget(file)
            return ""
        }
        let token = UUID().uuidString
        let sink = BinaryEncoder.Sink()
        sink.string(token)
        sink.integer(complete ? 1 : 0)
        sink.integer(UInt64(items.count))
        for (item, units) in zip(items, relative) {
            sink.string(slugs[item.machine])
            sink.integer(UInt64(bitPattern: Int64(item.part ?? -1)))
            sink.string(item.id)
            sink.string(item.date.text)
            sink.integer(UInt64(units.count))
            for unit in units { Self.write(unit, to: sink) }
            sink.string(item.text)
        }
        MemoFile.write(sink, format: Self.format, to: file)
        return token
    }

    /// Bumped whenever the file, or what an item holds, changes.
    private static let format = "teardown-feed-entries 2"

    private static func write(_ unit: Relative, to sink: BinaryEncoder.Sink) {
        switch unit {
        case .settings: sink.integer(0)
        case .machine(let aspect):
            sink.integer(1)
            sink.integer(UInt64(aspect))
        case .part(let part, let aspect):
            sink.integer(2)
            sink.integer(UInt64(part))
            sink.integer(UInt64(aspect))
        }
    }

    private static func readUnit(_ source: BinaryDecoder.Source) throws -> Relative {
        switch try source.integer() {
        case 0: return .settings
        case 1: return .machine(try source.unsigned(UInt8.self))
        case 2: return .part(try source.signed(), try source.unsigned(UInt8.self))
        default: throw BinaryDecoder.Source.corrupt
        }
    }

    private static func read(_ file: String) -> Stored? {
        guard let source = MemoFile.read(file, format: format) else { return nil }
        // A memo that does not read whole is none: every item is made.
        return try? {
            let token = try source.string()
            let complete = try source.flag()
            var items: [(slug: String, part: Int?, id: String, date: ISODate, units: [Relative], text: String)] = []
            for _ in 0..<(try source.integer()) {
                let slug = try source.string(), part = try source.signed(), id = try source.string()
                guard let date = ISODate(try source.string()) else { throw BinaryDecoder.Source.corrupt }
                var units: [Relative] = []
                for _ in 0..<(try source.integer()) { units.append(try readUnit(source)) }
                items.append((slug, part < 0 ? nil : part, id, date, units, try source.string()))
            }
            guard source.position == source.bytes.count else { throw BinaryDecoder.Source.corrupt }
            return Stored(token: token, complete: complete, items: items)
        }()
    }
}
