import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

/// catalog.json says of each machine what its brief, its summary and its catalog facts hold:
/// the facts of a machine the store vouches for are read from its row, and the file is byte for
/// byte what a full build writes.
@Suite("catalog.json from the machines' rows")
struct CatalogFactsTests {
    @Test("A description edited makes one machine's facts of three; the file equals a full build's, and a full build reads none")
    func oneEntryMade() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let machines = site + "/content/machines"
        for slug in ["crate", "drum"] {
            try FileManager.default.copyItem(atPath: machines + "/" + "box", toPath: machines + "/" + slug)
        }
        // Out of the racy window, every machine's row is written under its bundle's signature.
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.2)
        let output = site + "/public"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        try builder.build()
        #expect(counts[.catalogEntriesEncoded] == 3, "a first build makes every machine's facts")
        let before = try String(contentsOfFile: output + "/catalog.json", encoding: .utf8)

        // The description is in the machine's download: its size and digest are in catalog.json.
        let description = machines + "/crate/parts/lid/description.md"
        try (String(contentsOfFile: description, encoding: .utf8) + "\nA second paragraph.\n")
            .write(toFile: description, atomically: false, encoding: .utf8)
        let madeBefore = counts[.catalogEntriesEncoded]
        #expect(try builder.build().written > 0)
        let after = try String(contentsOfFile: output + "/catalog.json", encoding: .utf8)
        #expect(after != before, "the crate's download changed")
        #expect(counts[.catalogEntriesEncoded] - madeBefore == 1, "only the crate's facts are made again")

        let full = site + "/public-full"
        let fullCounts = Counts()
        try SiteBuilder(siteRoot: site, output: full, full: true, cacheFolder: output + ".cache", pagefind: .notInstalled,
                        counters: fullCounts.counters).build()
        #expect(fullCounts[.catalogEntriesEncoded] == 3, "a full build reads no machine's facts")
        #expect(try String(contentsOfFile: full + "/catalog.json", encoding: .utf8) == after)
    }

    @Test("Facts read back from a row are the facts written; bytes no build writes, or a digest that is not one, are none")
    func factsRoundTrip() {
        let facts = CatalogFacts(updated: "2025-03-01T00:00:00Z", photoCount: 2, downloadSize: 10,
                                 downloadSHA256: String(repeating: "ab", count: 32), cover: PixelSize(width: 1280, height: 960))
        #expect(CatalogFacts(encoded: facts.encoded) == facts)
        let bare = CatalogFacts(updated: nil, photoCount: 0, downloadSize: 0, downloadSHA256: "", cover: nil)
        #expect(CatalogFacts(encoded: bare.encoded) == bare)
        let forged = CatalogFacts(updated: nil, photoCount: 0, downloadSize: 1, downloadSHA256: "\"}, {\"slug\": \"", cover: nil)
        #expect(CatalogFacts(encoded: forged.encoded) == nil)
        let noCover = CatalogFacts(updated: nil, photoCount: 0, downloadSize: 0, downloadSHA256: "", cover: PixelSize(width: 0, height: 4))
        #expect(CatalogFacts(encoded: noCover.encoded) == nil, "a cover of no pixels is no build's")
        #expect(CatalogFacts(encoded: facts.encoded + [0]) == nil)
        #expect(CatalogFacts(encoded: Array(facts.encoded.dropLast())) == nil)
    }

    @Test("The file made from entries encoded one by one is the file encoded whole")
    func spliced() {
        func entry(_ slug: String, tags: [String], cover: Bool) -> CatalogData.MachineEntry {
            CatalogData.MachineEntry(slug: slug, name: "The \"\(slug)\" \\ back/slash", summary: "lines\nand\ttabs \u{07} é 漢字 🙂 \u{2028}",
                                     updated: cover ? "2025-03-01" : nil,
                                     partCount: 2, photoCount: 0, tags: tags, url: "https://example.org/m/\(slug)/",
                                     data: "https://example.org/m/\(slug)/machine.json", feed: "https://example.org/m/\(slug)/feed.xml",
                                     cover: cover ? CatalogData.Image(url: "https://example.org/c.jpg", width: 640, height: 480) : nil,
                                     download: CatalogData.Download(url: "https://example.org/\(slug).zip", size: 10, sha256: "ab"),
                                     comments: CatalogData.CommentsDownload(url: "https://example.org/\(slug)-comments.zip"))
        }
        let entries = [entry("a", tags: [], cover: true), entry("b", tags: ["x", "y"], cover: false), entry("c", tags: ["\u{00}"], cover: true)]
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
