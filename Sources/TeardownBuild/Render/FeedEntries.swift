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
/// One file per output, since the entries hold absolute URLs (`MemoFile`).
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
        let settings: ContentDigest
        let machines: ContentDigest
        let complete: Bool
        /// Each machine's feed unit then, by slug.
        let feeds: [String: ContentDigest]
        let items: [(slug: String, part: Int?, id: String, date: ISODate, units: [Relative], key: ContentDigest, text: String)]
    }

    private let file: String
    private let slugs: [String]
    private let naming: @Sendable (InputUnit) -> String
    private let digests: @Sendable ([String]) -> [String: ContentDigest]
    private let stored: Stored?
    private let counters: BuildCounters
    /// The list this build chose: what `save` writes.
    private let chosen = Locked<(items: [Item], complete: Bool)?>(nil)

    /// `slugs` are the catalog's machines in order; `digests` gives the digest now of units by
    /// key (this build's, or the store's for machines it carried). Not `trusting` the file (a
    /// full build), every item is made, and the file written anew.
    package init(file: String, slugs: [String], naming: @escaping @Sendable (InputUnit) -> String,
                 digests: @escaping @Sendable ([String]) -> [String: ContentDigest], trusting: Bool = true,
                 counters: BuildCounters = .none) {
        self.file = file
        self.slugs = slugs
        self.naming = naming
        self.digests = digests
        self.counters = counters
        stored = trusting ? Self.read(file) : nil
    }

    /// The items of the machines that did not change since the list was kept, and the machines
    /// that did; nil when there is no list, or the settings or the machines are others.
    package func kept() -> Kept? {
        guard let stored else { return nil }
        var keys = [naming(.settings), naming(.machineList)]
        keys += slugs.indices.map { naming(.machine($0, .feed)) }
        let index = Dictionary(slugs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let items = stored.items.compactMap { item in
            index[item.slug].map { machine in (item, machine, item.units.compactMap { $0.unit(of: machine) }) }
        }
        guard items.count == stored.items.count, items.allSatisfy({ $0.0.units.count == $0.2.count }) else { return nil }
        for (_, _, units) in items { keys += units.map(naming) }
        let now = digests(keys)
        guard now[keys[0]] == stored.settings, now[keys[1]] == stored.machines else { return nil }
        var changed = Set(slugs.indices.filter { machine in
            let feed = now[naming(.machine(machine, .feed))]
            return feed == nil || feed != stored.feeds[slugs[machine]]
        })
        for (item, machine, units) in items where !changed.contains(machine) {
            if key(units, now) != item.key { changed.insert(machine) }
        }
        let kept = items.filter { !changed.contains($0.1) }.map { item, machine, units in
            Item(machine: machine, part: item.part, id: item.id, date: item.date, text: item.text, units: Set(units))
        }
        return Kept(items: kept, changed: changed.sorted(), complete: stored.complete)
    }

    /// The list this build's feed holds, newest first, of which it made `made` items;
    /// `complete` when it is every item of the site.
    package func keep(_ items: [Item], made: Int, complete: Bool) {
        counters.count(.feedItemsMade, by: made)
        chosen.withLock { $0 = (items, complete) }
    }

    /// Writes the list kept, with the digests now of what it read. A list with an item that
    /// read what cannot be named from its machine, or whose digests are not all known, is no
    /// memo: the file is removed, so that no later build takes a list this one did not publish.
    package func save() {
        guard let (items, complete) = chosen.withLock({ $0 }) else { return }
        let relative = items.map { item in item.units.compactMap { Relative($0, of: item.machine) } }
        var keys = [naming(.settings), naming(.machineList)] + slugs.indices.map { naming(.machine($0, .feed)) }
        for (item, units) in zip(items, relative) { keys += units.compactMap { $0.unit(of: item.machine) }.map(naming) }
        let now = digests(keys)
        guard zip(items, relative).allSatisfy({ $0.units.count == $1.count }),
              let settings = now[keys[0]], let machines = now[keys[1]] else { return MemoFile.forget(file) }
        let sink = BinaryEncoder.Sink()
        sink.string(settings.description)
        sink.string(machines.description)
        sink.integer(complete ? 1 : 0)
        sink.integer(UInt64(slugs.count))
        for (machine, slug) in slugs.enumerated() {
            guard let feed = now[naming(.machine(machine, .feed))] else { return MemoFile.forget(file) }
            sink.string(slug)
            sink.string(feed.description)
        }
        sink.integer(UInt64(items.count))
        for (item, units) in zip(items, relative) {
            guard let key = key(units.compactMap { $0.unit(of: item.machine) }, now) else { return MemoFile.forget(file) }
            sink.string(slugs[item.machine])
            sink.integer(UInt64(bitPattern: Int64(item.part ?? -1)))
            sink.string(item.id)
            sink.string(item.date.text)
            sink.integer(UInt64(units.count))
            for unit in units { Self.write(unit, to: sink) }
            sink.string(key.description)
            sink.string(item.text)
        }
        MemoFile.write(sink, format: Self.format, to: file)
    }

    /// Bumped whenever the file, or what an item holds, changes.
    private static let format = "teardown-feed-entries 1"

    private func key(_ units: [InputUnit], _ digests: [String: ContentDigest]) -> ContentDigest? {
        var fingerprint = Fingerprint()
        fingerprint.add(Self.format)
        for key in units.map(naming).sorted() {
            guard let digest = digests[key] else { return nil }
            fingerprint.add(key)
            fingerprint.add(digest)
        }
        return fingerprint.digest
    }

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
            let settings = try source.digest(), machines = try source.digest()
            let complete = try source.flag()
            var feeds: [String: ContentDigest] = [:]
            for _ in 0..<(try source.integer()) { feeds[try source.string()] = try source.digest() }
            var items: [(slug: String, part: Int?, id: String, date: ISODate, units: [Relative], key: ContentDigest, text: String)] = []
            for _ in 0..<(try source.integer()) {
                let slug = try source.string(), part = try source.signed(), id = try source.string()
                guard let date = ISODate(try source.string()) else { throw BinaryDecoder.Source.corrupt }
                var units: [Relative] = []
                for _ in 0..<(try source.integer()) { units.append(try readUnit(source)) }
                items.append((slug, part < 0 ? nil : part, id, date, units, try source.digest(), try source.string()))
            }
            guard source.position == source.bytes.count else { throw BinaryDecoder.Source.corrupt }
            return Stored(settings: settings, machines: machines, complete: complete, feeds: feeds, items: items)
        }()
    }
}
