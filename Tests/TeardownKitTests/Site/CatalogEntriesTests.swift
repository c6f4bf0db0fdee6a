import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownBuild

/// catalog.json's entries are kept with the units they read: a change to one machine encodes
/// that machine's entry, and the file is byte for byte what a full build writes.
@Suite("catalog.json's kept entries")
struct CatalogEntriesTests {
    @Test("A description edited encodes one machine's entry of three; the file equals a full build's, and a full build keeps none")
    func oneEntryEncoded() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let machines = site + "/content/machines"
        for slug in ["crate", "drum"] {
            try FileManager.default.copyItem(atPath: machines + "/box", toPath: machines + "/" + slug)
        }
        let output = site + "/public"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        try builder.build()
        #expect(counts[.catalogEntriesEncoded] == 3, "a first build encodes every entry")
        let before = try String(contentsOfFile: output + "/catalog.json", encoding: .utf8)

        // The description is in the machine's download: its size and digest are in catalog.json.
        let description = machines + "/crate/parts/lid/description.md"
        try (String(contentsOfFile: description, encoding: .utf8) + "\nA second paragraph.\n")
            .write(toFile: description, atomically: false, encoding: .utf8)
        let encodedBefore = counts[.catalogEntriesEncoded]
        #expect(try builder.build().written > 0)
        let after = try String(contentsOfFile: output + "/catalog.json", encoding: .utf8)
        #expect(after != before, "the crate's download changed")
        #expect(counts[.catalogEntriesEncoded] - encodedBefore == 1, "only the crate's entry is encoded again")

        let full = site + "/public-full"
        let fullCounts = Counts()
        try SiteBuilder(siteRoot: site, output: full, full: true, cacheFolder: output + ".cache", pagefind: .notInstalled,
                        counters: fullCounts.counters).build()
        #expect(fullCounts[.catalogEntriesEncoded] == 3, "a full build takes no kept entry")
        #expect(try String(contentsOfFile: full + "/catalog.json", encoding: .utf8) == after)

        // A damaged memo is no memo: every entry is encoded, and the file is the same.
        let memo = CacheLayout(root: output + ".cache").output(output).catalogEntries
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: memo))
        try (String(contentsOfFile: description, encoding: .utf8) + "\nA third paragraph.\n")
            .write(toFile: description, atomically: false, encoding: .utf8)
        let encodedThen = counts[.catalogEntriesEncoded]
        try builder.build()
        #expect(counts[.catalogEntriesEncoded] - encodedThen == 3)
        try SiteBuilder(siteRoot: site, output: full, full: true, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        #expect(try String(contentsOfFile: output + "/catalog.json", encoding: .utf8)
                    == String(contentsOfFile: full + "/catalog.json", encoding: .utf8))
    }

    @Test("The file made from entries encoded one by one is the file encoded whole")
    func spliced() {
        func entry(_ slug: String, tags: [String], cover: Bool) -> CatalogData.MachineEntry {
            CatalogData.MachineEntry(slug: slug, name: "The \"\(slug)\"", summary: "", updated: cover ? "2025-03-01" : nil,
                                     partCount: 2, photoCount: 0, tags: tags, url: "https://example.org/m/\(slug)/",
                                     data: "https://example.org/m/\(slug)/machine.json", feed: "https://example.org/m/\(slug)/feed.xml",
                                     cover: cover ? CatalogData.Image(url: "https://example.org/c.jpg", width: 640, height: 480) : nil,
                                     download: CatalogData.Download(url: "https://example.org/\(slug).zip", size: 10, sha256: "ab"),
                                     comments: CatalogData.CommentsDownload(url: "https://example.org/\(slug)-comments.zip"))
        }
        let entries = [entry("a", tags: [], cover: true), entry("b", tags: ["x", "y"], cover: false)]
        let collection = CatalogData.CollectionEntry(slug: "c", title: "C", description: "", url: "https://example.org/c/",
                                                     machines: ["a", "b"])
        func file(_ machines: [CatalogData.MachineEntry]) -> CatalogData {
            CatalogData(schema: "https://example.org/catalog.schema.json", title: "T", description: "", url: "https://example.org/",
                        machines: machines, collections: [collection], intake: nil)
        }
        #expect(file([]).json(machines: entries.map(\.listed)) == file(entries).json)
        #expect(file([]).json(machines: []) == file([]).json)
    }
}
