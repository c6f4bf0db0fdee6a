import Foundation
import TeardownBase
import TeardownContent

/// catalog.json's entry of each machine as the build that last wrote the file encoded it, with
/// the units the entry read and their digests then. catalog.json lists every machine, so an
/// edit that changes one machine's download made the file again from the head of every machine,
/// each decoded for the purpose (most of a description edit at 100,000 parts): an entry whose
/// units have the digests they had is taken as it was encoded, and its reads recorded as before.
///
/// One file per output, since the entries hold absolute URLs (`MemoFile`).
package final class CatalogEntries: @unchecked Sendable {
    /// The machine-wide units an entry may read besides the settings; an entry that reads
    /// another is encoded on every build.
    package static let aspects: [InputUnit.MachineAspect] = [.head, .gallery, .cover, .download]

    private struct Entry {
        /// The keys of the units it read, sorted.
        let units: [String]
        let key: ContentDigest
        let text: String
    }

    private let file: String
    private let naming: @Sendable (InputUnit) -> String
    /// The digest now of every unit of `aspects` and of the settings, by key.
    private let digests: [String: ContentDigest]
    private let counters: BuildCounters
    /// As read from the file, by machine slug.
    private let stored: [String: Entry]
    /// What this build encoded or took, by machine slug: the next file.
    private let current = Locked([String: Entry]())
    /// Each machine's kept entry as first checked, by index: the build asks before it reads the
    /// heads of the others on every core, and the page asks again.
    private let checked = Locked([Int: (text: String, units: Set<InputUnit>)?]())

    /// Not `trusting` the file (a full build), every entry is encoded, and the file written anew.
    package init(file: String, naming: @escaping @Sendable (InputUnit) -> String, digests: [String: ContentDigest],
                 trusting: Bool = true, counters: BuildCounters = .none) {
        self.file = file
        self.naming = naming
        self.digests = digests
        self.counters = counters
        stored = trusting ? Self.read(file) : [:]
    }

    /// The entry of machine `index`, when the units it read last still have their digests: its
    /// text, and the units to record as the page's reads.
    package func entry(of index: Int, slug: String) -> (text: String, units: Set<InputUnit>)? {
        if let known = checked.withLock({ $0[index] }) { return known }
        let found = check(index, slug: slug)
        checked.withLock { $0[index] = .some(found) }
        return found
    }

    private func check(_ index: Int, slug: String) -> (text: String, units: Set<InputUnit>)? {
        guard let entry = stored[slug] else { return nil }
        var units: [String: InputUnit] = [naming(.settings): .settings]
        for aspect in Self.aspects { units[naming(.machine(index, aspect))] = .machine(index, aspect) }
        guard entry.units.allSatisfy({ units[$0] != nil }), key(entry.units) == entry.key else { return nil }
        current.withLock { $0[slug] = entry }
        return (entry.text, Set(entry.units.compactMap { units[$0] }))
    }

    /// Keeps the entry just encoded for machine `slug`, unless it read a unit without a digest here.
    package func keep(_ text: String, slug: String, units: Set<InputUnit>) {
        counters.count(.catalogEntriesEncoded)
        let keys = units.map(naming).sorted()
        guard let key = key(keys) else { return }
        current.withLock { $0[slug] = Entry(units: keys, key: key, text: text) }
    }

    /// Writes the entries of this build's catalog.json. The file is a memo: one that cannot be
    /// written costs the next build the entries.
    package func save() {
        let entries = current.withLock { $0 }.sorted { $0.key < $1.key }
        let sink = BinaryEncoder.Sink()
        sink.integer(UInt64(entries.count))
        for (slug, entry) in entries {
            sink.string(slug)
            sink.integer(UInt64(entry.units.count))
            entry.units.forEach(sink.string)
            sink.string(entry.key.description)
            sink.string(entry.text)
        }
        MemoFile.write(sink, format: Self.format, to: file)
    }

    /// Bumped whenever the file, or what an entry holds, changes.
    private static let format = "teardown-catalog-entries 1"

    private func key(_ units: [String]) -> ContentDigest? {
        var fingerprint = Fingerprint()
        fingerprint.add(Self.format)
        for unit in units {
            guard let digest = digests[unit] else { return nil }
            fingerprint.add(unit)
            fingerprint.add(digest)
        }
        return fingerprint.digest
    }

    private static func read(_ file: String) -> [String: Entry] {
        guard let source = MemoFile.read(file, format: format) else { return [:] }
        do {
            var entries: [String: Entry] = [:]
            for _ in 0..<(try source.integer()) {
                let slug = try source.string()
                var units: [String] = []
                for _ in 0..<(try source.integer()) { units.append(try source.string()) }
                entries[slug] = Entry(units: units, key: try source.digest(), text: try source.string())
            }
            return entries
        } catch {
            return [:]
        }
    }
}
