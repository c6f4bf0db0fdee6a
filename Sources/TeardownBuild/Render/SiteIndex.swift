import Foundation
import TeardownBase
import TeardownContent
import TeardownMedia

/// The indexes that cut across machines: every part A to Z, the tags, and site.yaml's
/// collections. Made once per build; the plan, the pages and the fingerprints all read it.
package struct SiteIndex: Sendable {
    package struct PartAddress: Sendable, Hashable {
        package let machine: Int
        package let part: Int
    }

    /// One drawer of the card file: the parts whose names start with one letter.
    package struct Letter: Sendable {
        /// In the URL: "a" to "z", or "other" for names that start with anything else.
        package let key: String
        /// On the tab: "A" to "Z", or "#".
        package let label: String
        /// By name, then machine name.
        package let parts: StoredList<PartAddress>
    }

    package struct Tag: Sendable {
        package let slug: String
        /// The tag as written; tags that differ only in case or punctuation share a page.
        package let names: [String]
        package let machines: StoredList<Int>
        package let parts: StoredList<PartAddress>
    }

    package struct Collection: Sendable {
        package let slug: String
        package let title: String
        package let description: String
        /// Machines that exist, in the order site.yaml lists them.
        package let machines: [Int]
    }

    /// The letters that have parts, A to Z, then "#".
    package let letters: [Letter]
    /// By slug.
    package let tags: [Tag]
    package let collections: [Collection]

    /// The digest of what the index is made from (`key(_:)`): the pages that show it read it
    /// as one unit (`InputUnit.siteIndex`) of this digest.
    package let digest: ContentDigest

    /// Made from the loaded content alone, without images or a store (the fuzz target's).
    package init(_ content: SiteContent) {
        let view = ContentView(content, reads: ReadSet())
        let images = ProcessedImages(entries: "", photos: [:], layers: [:], covers: [:], composed: [:], diagnostics: [],
                                     processed: 0, vipsVersion: "")
        let summaries = MachineSummaries(content: content, images: images, vouched: [], counters: .none) { _ in nil }
        self.init(view, summaries: summaries, digest: Self.key(view))
    }

    init(letters: [Letter], tags: [Tag], collections: [Collection], digest: ContentDigest) {
        self.letters = letters
        self.tags = tags
        self.collections = collections
        self.digest = digest
    }

    /// Made from every machine's tags and its summary's parts: no machine's head is decoded.
    init(_ content: ContentView, summaries: MachineSummaries, digest: ContentDigest) {
        let machines = content.machines
        var tagged = TagFiler()
        for (m, machine) in machines.enumerated() {
            // Once a tag, though named twice or in two cases.
            for tag in Set(machine.tags.map { tagged.tag(named: $0) }) { tagged.file(machine: m, in: tag) }
        }
        // Every part is sorted by name once, and filed in that order: each drawer and tag is then
        // in order without a sort of its own (sorting each, by three strings a comparison, was
        // most of the index's time). Names are folded, and their drawer and tags found, once, not
        // per comparison; drawers and tags are numbered, so filing a part hashes no string.
        var keys: [(String, String, String)] = [], addresses: [PartAddress] = [], drawerOf: [Int] = [], tagsOf: [[Int]] = []
        for (m, summary) in summaries.all.enumerated() {
            let name = summary.name
            for (p, part) in summary.parts.enumerated() {
                let partName = part.name
                keys.append((Self.sortKey(partName), name, part.slug))
                addresses.append(PartAddress(machine: m, part: p))
                drawerOf.append(Self.drawer(of: partName))
                let tags = part.tags.map { tagged.tag(named: $0) }
                tagsOf.append(tags.count < 2 || (tags.count == 2 && tags[0] != tags[1]) ? tags : Array(Set(tags)))
            }
        }
        var drawers = Array(repeating: [PartAddress](), count: Self.drawers.count)
        for index in keys.indices.sorted(by: { keys[$0] < keys[$1] }) {
            drawers[drawerOf[index]].append(addresses[index])
            for tag in tagsOf[index] { tagged.file(part: addresses[index], in: tag) }
        }
        letters = zip(Self.drawers, drawers).compactMap { key, parts in
            guard !parts.isEmpty else { return nil }
            return Letter(key: key, label: key == "other" ? "#" : key.uppercased(), parts: StoredList(parts))
        }
        tags = tagged.tags()
        let bySlug = Dictionary(machines.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { first, _ in first })
        collections = content.config.collections.map { collection in
            Collection(slug: collection.slug, title: collection.title, description: collection.description,
                       machines: collection.machines.compactMap { bySlug[$0] })
        }
        self.digest = digest
    }

    /// Tags by slug as machines and parts are filed under them. A catalog has a few tags on
    /// thousands of parts: each name is made a slug, and numbered, once.
    private struct TagFiler {
        private var numbers: [String: Int] = [:]
        private var bySlug: [String: Int] = [:]
        private var filed: [(slug: String, names: [String], machines: [Int], parts: [PartAddress])] = []

        /// The number of a tag's name, the name noted under its slug the first time it is met.
        mutating func tag(named name: String) -> Int {
            if let number = numbers[name] { return number }
            let slug = SiteIndex.slug(ofTag: name)
            let number = bySlug[slug] ?? filed.count
            if number == filed.count {
                bySlug[slug] = number
                filed.append((slug, [], [], []))
            }
            filed[number].names.append(name)
            numbers[name] = number
            return number
        }

        mutating func file(machine: Int, in tag: Int) { filed[tag].machines.append(machine) }
        mutating func file(part: PartAddress, in tag: Int) { filed[tag].parts.append(part) }

        func tags() -> [Tag] {
            filed.sorted { $0.slug < $1.slug }.map { entry in
                Tag(slug: entry.slug, names: entry.names.sorted(), machines: StoredList(entry.machines), parts: StoredList(entry.parts))
            }
        }
    }

    /// How a name is filed: without case or accents, so "écrou" sits with the E's.
    /// Most names are plain ASCII, lowercased without Foundation: every part's name is folded
    /// on every build.
    package static func sortKey(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name.lowercased() }
        return name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
    }

    /// How many words' files the first-answer index is filed in (`SearchWords.fileCount`): by
    /// the number of parts, which the search page and the index step both know.
    package var firstAnswerFiles: Int { SearchWords.fileCount(items: letters.reduce(0) { $0 + $1.parts.count }) }

    package static let alphabet = "abcdefghijklmnopqrstuvwxyz".map(String.init)

    /// The drawers in order, "a" to "z" then "other".
    private static let drawers = alphabet + ["other"]

    /// The number of the drawer a name goes in, in `drawers`: its first letter without accents,
    /// or "other".
    private static func drawer(of name: String) -> Int {
        // The common case, an ASCII letter either case, by its byte, without Foundation's trimming.
        if let byte = name.utf8.first, (0x61...0x7A).contains(byte | 0x20) { return Int((byte | 0x20) - 0x61) }
        guard let first = name.trimmingCharacters(in: .whitespaces).first else { return drawers.count - 1 }
        let folded = String(first).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        return alphabet.firstIndex(of: folded) ?? drawers.count - 1
    }

    package static func slug(ofTag name: String) -> String { Routes.slug(ofTag: name) }
}
