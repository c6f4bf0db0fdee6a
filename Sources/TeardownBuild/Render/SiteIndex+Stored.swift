import Foundation
import TeardownBase
import TeardownContent

// The site index as the last build made it, kept in a file under the digest of what it was
// made from: every machine's listing (`MachineHead.listing`) and site.yaml's collections. A
// comment leaves every listing as it was, and making the index again from every part's
// outline was the larger half of a one-comment sync's plan step.
//
// The file holds the SHA-256 of the rest, the key, then the index; a file that is not whole,
// is of another key, or names a machine or part the site does not have, is a miss, and the
// index is made again. Written to a temporary file and renamed, as the content cache is.
extension SiteIndex {
    /// The index of `content`, taken from `file` when it was made from the same listings, else
    /// made (counted as `siteIndexesMade`) and stored there. Either way the key is the digest
    /// the pages that show the index read it under (`InputUnit.siteIndex`).
    /// Not `trusting` the file (a full build), the index is made and stored.
    package init(_ content: SiteContent, summaries: MachineSummaries, stored file: String, trusting: Bool = true,
                 counters: BuildCounters = .none) {
        let view = ContentView(content, reads: ReadSet())
        let key = Self.key(view)
        let parts = view.machines.map(\.partCount)
        if trusting, let stored = Self.read(file, key: key, parts: parts, counters: counters) {
            self.init(letters: stored.letters, tags: stored.tags, collections: stored.collections,
                      digest: key)
            return
        }
        counters.count(.siteIndexesMade)
        self.init(view, summaries: summaries, digest: key)
        // The file is a memo: one that cannot be written costs the next build the index.
        try? FileSystem.writeAtomically(stored(key: key), to: file)
    }

    /// The format of the stored index: bumped whenever it, or what the index holds, changes.
    private static let storedFormat = "teardown-site-index 3"

    /// What the index is made from: site.yaml's collections and every machine's listing, in order.
    static func key(_ content: ContentView) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(storedFormat)
        let collections = content.config.collections
        fingerprint.add(collections.count)
        for collection in collections {
            fingerprint.add(collection.slug)
            fingerprint.add(collection.title)
            fingerprint.add(collection.description)
            fingerprint.add(collection.machines.count)
            for machine in collection.machines { fingerprint.add(machine) }
        }
        let machines = content.machines
        fingerprint.add(machines.count)
        for machine in machines { fingerprint.add(machine.listing) }
        return fingerprint.digest
    }

    // MARK: Writing

    /// The digest of a list as the stored index holds it, without decoding a stored one: the
    /// key the pages that show the list read it by (`InputUnit.Listing`).
    package static func digest(_ list: StoredList<PartAddress>) -> ContentDigest {
        list.storedDigest ?? Self.encoded { write(list, to: $0) }
    }

    package static func digest(_ list: StoredList<Int>) -> ContentDigest {
        list.storedDigest ?? Self.encoded { write(list, to: $0) }
    }

    /// The digest of the items in `range` as the stored index holds them, without their count:
    /// the same for a list made now and for it read back.
    package static func digest(_ list: StoredList<PartAddress>, _ range: Range<Int>) -> ContentDigest {
        list.storedDigest(of: range) ?? Self.encoded { sink in
            for address in list.elements[range] {
                sink.integer(UInt64(address.machine))
                sink.integer(UInt64(address.part))
            }
        }
    }

    package static func digest(_ list: StoredList<Int>, _ range: Range<Int>) -> ContentDigest {
        list.storedDigest(of: range) ?? Self.encoded { sink in list.elements[range].forEach { sink.integer(UInt64($0)) } }
    }

    private static func encoded(_ write: (BinaryEncoder.Sink) -> Void) -> ContentDigest {
        let sink = BinaryEncoder.Sink()
        write(sink)
        return ContentDigest(bytes: Data(sink.bytes))
    }

    private static func write(_ parts: some Swift.Collection<PartAddress>, to sink: BinaryEncoder.Sink) {
        sink.integer(UInt64(parts.count))
        for address in parts {
            sink.integer(UInt64(address.machine))
            sink.integer(UInt64(address.part))
        }
    }

    private static func write(_ values: some Swift.Collection<Int>, to sink: BinaryEncoder.Sink) {
        sink.integer(UInt64(values.count))
        for value in values { sink.integer(UInt64(value)) }
    }

    private func stored(key: ContentDigest) -> Data {
        let sink = BinaryEncoder.Sink()
        sink.string(key.description)
        sink.integer(UInt64(letters.count))
        for letter in letters {
            sink.string(letter.key)
            sink.string(letter.label)
            Self.write(letter.parts, to: sink)
        }
        sink.integer(UInt64(tags.count))
        for tag in tags {
            sink.string(tag.slug)
            sink.integer(UInt64(tag.names.count))
            tag.names.forEach(sink.string)
            Self.write(tag.machines, to: sink)
            Self.write(tag.parts, to: sink)
        }
        sink.integer(UInt64(collections.count))
        for collection in collections {
            sink.string(collection.slug)
            sink.string(collection.title)
            sink.string(collection.description)
            Self.write(collection.machines, to: sink)
        }
        let body = sink.bytes
        let whole = BinaryEncoder.Sink()
        whole.string(ContentDigest(bytes: Data(body)).description)
        whole.bytes += body
        return Data(whole.bytes)
    }

    // MARK: Reading

    private struct Stored {
        var letters: [Letter] = []
        var tags: [Tag] = []
        var collections: [Collection] = []
    }

    /// The stored index, if `file` holds a whole one of `key` for machines of these part counts.
    private static func read(_ file: String, key: ContentDigest, parts: [Int], counters: BuildCounters) -> Stored? {
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let source = BinaryDecoder.Source(bytes: [UInt8](data))
        do {
            let digest = try source.digest()
            guard ContentDigest(bytes: data.suffix(from: data.startIndex + source.position)) == digest,
                  try source.digest() == key
            else { return nil }
            let stored = try Self.read(source, parts: parts, counters: counters)
            return source.position == source.bytes.count ? stored : nil
        } catch {
            return nil
        }
    }

    /// Reads the index, its long lists checked now and decoded when first asked for
    /// (`StoredList`): each is read twice at most, and held decoded only if something reads it.
    private static func read(_ source: BinaryDecoder.Source, parts: [Int], counters: BuildCounters) throws -> Stored {
        let bytes = source.bytes
        func each<Value>(_ read: (BinaryDecoder.Source) throws -> Value) throws -> [Value] {
            let count = try Self.count(source)
            var values: [Value] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try read(source)) }
            return values
        }
        func list<Value: Sendable>(_ read: @escaping @Sendable (BinaryDecoder.Source) throws -> Value) throws -> StoredList<Value> {
            let from = source.position
            let count = try Self.count(source), start = source.position
            // Where each item starts, for the digests of a page's items.
            guard bytes.count < Int(UInt32.max) else { throw BinaryDecoder.Source.corrupt }
            var offsets = [UInt32(start)]
            offsets.reserveCapacity(count + 1)
            for _ in 0..<count {
                _ = try read(source)
                offsets.append(UInt32(source.position))
            }
            return StoredList(count: count, digest: ContentDigest(bytes: Data(bytes[from..<source.position])),
                              slices: StoredList.Slices(bytes: bytes, offsets: offsets)) {
                counters.count(.indexListsDecoded)
                let again = BinaryDecoder.Source(bytes: bytes)
                again.position = start
                // Read without a fault once already: the bytes are the same.
                return (try? (0..<count).map { _ in try read(again) }) ?? []
            }
        }
        let address: @Sendable (BinaryDecoder.Source) throws -> PartAddress = { try Self.address($0, parts) }
        let machine: @Sendable (BinaryDecoder.Source) throws -> Int = { try Self.machine($0, parts) }
        var stored = Stored()
        stored.letters = try each { Letter(key: try $0.string(), label: try $0.string(), parts: try list(address)) }
        stored.tags = try each {
            Tag(slug: try $0.string(), names: try each { try $0.string() }, machines: try list(machine), parts: try list(address))
        }
        stored.collections = try each {
            Collection(slug: try $0.string(), title: try $0.string(), description: try $0.string(), machines: try each(machine))
        }
        return stored
    }

    /// A count, at most one per byte left: a damaged one must not reserve room for billions.
    private static func count(_ source: BinaryDecoder.Source) throws -> Int {
        guard let value = Int(exactly: try source.integer()), value <= source.bytes.count - source.position
        else { throw BinaryDecoder.Source.corrupt }
        return value
    }

    private static func machine(_ source: BinaryDecoder.Source, _ parts: [Int]) throws -> Int {
        guard let value = Int(exactly: try source.integer()), value < parts.count else { throw BinaryDecoder.Source.corrupt }
        return value
    }

    private static func address(_ source: BinaryDecoder.Source, _ parts: [Int]) throws -> PartAddress {
        let machine = try machine(source, parts)
        guard let part = Int(exactly: try source.integer()), part < parts[machine] else { throw BinaryDecoder.Source.corrupt }
        return PartAddress(machine: machine, part: part)
    }
}
