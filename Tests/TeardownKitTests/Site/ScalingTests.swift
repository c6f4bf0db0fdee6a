import Foundation
import Testing
@testable import TeardownContent
@testable import TeardownMedia
@testable import TeardownBuild
@testable import TeardownInbox

/// A generated catalog of `machines` machines of 20 parts each, every part with its own layer,
/// a description, a tag and a comment: the same shape at every size, so that what one synced
/// comment costs can be compared across sizes.
private struct GeneratedCatalog {
    let site: String
    let output: String
    let inbox: String
    static let partsPerMachine = 20

    init(machines: Int) throws {
        let root = Fixtures.temporaryFolder()
        site = root + "/site"
        output = root + "/public"
        inbox = root + "/inbox"
        try write("title: \"Generated\"\nbase_url: \"https://example.org/\"\nsearch: false\n", to: "content/site.yaml")
        try write("# Manual\n\nHow to read the catalog.\n", to: "content/manual/index.md")
        for m in 0..<machines {
            let machine = "content/machines/machine-\(m)"
            try write("name: \"Machine \(m)\"\nsummary: \"Generated machine \(m).\"\ncanvas: {width: 200, height: 100}\n"
                      + "tags: [\(m % 2 == 0 ? "even" : "odd")]\n", to: machine + "/machine.yaml")
            try write("Machine \(m), as its designer describes it.\n", to: machine + "/description.md")
            for p in 0..<Self.partsPerMachine {
                let part = machine + "/parts/part-\(p)"
                try write("name: \"Part \(p) of \(m)\"\nlayer:\n  image: layer.svg\n  z: \(p)\ntags: [t\(p % 4)]\n",
                          to: part + "/part.yaml")
                try write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\" viewBox=\"0 0 200 100\">"
                          + "<rect x=\"\(p * 9)\" y=\"\(m % 50)\" width=\"9\" height=\"40\" fill=\"#888\"/></svg>",
                          to: part + "/layer.svg")
                try write("Part \(p) of machine \(m).\n", to: part + "/description.md")
                try write("---\nauthor: Ada\ndate: 2024-05-01\n---\nA first remark on part \(p).\n",
                          to: part + "/comments/first.md")
            }
        }
        // Files changed less than the racy window ago are checked by content, as they must be:
        // a catalog published as it is written would be keyed again on every build. Out of
        // the window, the cold build and the sync see a catalog as a publisher's is.
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.1)
    }

    func write(_ text: String, to path: String) throws {
        let full = site + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: false, encoding: .utf8)
    }

    /// What one comment synced from a folder inbox cost, as `teardown sync` runs it: one walk
    /// for the review and the build, which looks again only at the paths sync filed.
    struct Cost: Equatable, CustomStringConvertible {
        var written = 0
        var headsDecoded = 0
        var imagesKeyed = 0
        var imagesLookedUp = 0
        var imageRowsWritten = 0
        var snapshotRowsWritten = 0
        var sourcesHashed = 0
        var machinesDigested = 0
        var partsRead = 0
        var archivesZipped = 0
        var storesOpened = 0
        var outputsCarried = 0
        /// The published files the sync wrote (new, or another file than before), and their bytes.
        var paths: Set<String> = []
        var bytes = 0
        var description: String {
            "\(written) outputs written, \(headsDecoded) heads decoded, \(partsRead) parts read, \(imagesKeyed) images keyed, \(imagesLookedUp) looked up, \(imageRowsWritten) image rows and \(snapshotRowsWritten) snapshot rows written, \(sourcesHashed) sources hashed, "
                + "\(machinesDigested) machines' units digested, \(archivesZipped) archives zipped, \(storesOpened) store connections, \(outputsCarried) outputs carried, \(bytes) bytes in \(paths.sorted())"
        }
    }

    func syncOneComment() throws -> Cost {
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        try "---\nmachine: machine-1\npart: part-3\nauthor: \"Grace\"\ndate: 2024-06-01\n---\nA synced remark.\n"
            .write(toFile: inbox + "/synced.comment.md", atomically: false, encoding: .utf8)
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, pagefind: .notInstalled, counters: counts.counters)
        let cache = site + "/.teardown-cache"
        let published = Self.files(output)
        let inputs = builder.walkInputs()
        let report = try Syncer(siteRoot: site, source: Inbox.source(inbox, scratch: cache + "/sync/downloads"), counters: counts.counters)
            .run(dryRun: false, inputs: inputs)
        #expect(report.count(.accept) == 1)
        let build = try builder.build(inputs: inputs, changed: report.filed.map { site + "/" + $0 })
        let written = Self.files(output).filter { published[$0.key]?.inode != $0.value.inode }
        return Cost(written: build.written, headsDecoded: counts[.headsDecoded], imagesKeyed: counts[.imagesKeyed],
                    imagesLookedUp: counts[.imagesLookedUp], imageRowsWritten: counts[.imageRowsWritten],
                    snapshotRowsWritten: counts[.inputRowsWritten], sourcesHashed: counts[.sourcesHashed],
                    machinesDigested: build.machinesDigested, partsRead: counts[.partsRead], archivesZipped: counts[.bundlesZipped], storesOpened: counts[.storesOpened],
                    outputsCarried: counts[.outputsCarried],
                    paths: Set(written.keys), bytes: written.values.reduce(0) { $0 + $1.size })
    }

    /// Every file of the published tree, by path, with its inode and size: a file written
    /// anew is another inode, one carried over is the same.
    private static func files(_ root: String) -> [String: (inode: UInt64, size: Int)] {
        var files: [String: (inode: UInt64, size: Int)] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[path] = ((attributes[.systemFileNumber] as? UInt64) ?? 0, (attributes[.size] as? Int) ?? 0)
        }
        return files
    }
}

@Suite("What a change costs, at two catalog sizes")
struct ScalingTests {
    /// Counts, not times: the same at 1,000 parts as at 100 for what already follows the
    /// change. (The walk stats every input by design; heads of unchanged machines are decoded
    /// once per process, which this in-process test does not see; the page list and the
    /// state files still grow with the catalog.)
    @Test("One synced comment writes, decodes, keys, looks up and hashes as much at 1,000 parts as at 100")
    func oneComment() throws {
        var costs: [GeneratedCatalog.Cost] = []
        for machines in [5, 50] {
            let catalog = try GeneratedCatalog(machines: machines)
            let cold = try SiteBuilder(siteRoot: catalog.site, output: catalog.output, pagefind: .notInstalled).build()
            #expect(cold.warnings.isEmpty, "\(cold.warnings)")
            costs.append(try catalog.syncOneComment())
        }
        let (small, large) = (costs[0], costs[1])
        // The part's page, its machine's page, discussion.json, feed and comments' download, the
        // catalog's page and the site's feed: no tag or A-Z page, no machine.json, bundle
        // download, catalog.json or sitemap, whatever the size.
        #expect(large.written == small.written, "100 parts: \(small); 1,000 parts: \(large)")
        let expected: Set = ["machines/machine-1/parts/part-3/index.html", "machines/machine-1/index.html",
                             "machines/machine-1/discussion.json", "machines/machine-1/feed.xml",
                             "downloads/comments/machine-1.zip", "index.html", "feed.xml"]
        #expect(small.paths == expected && large.paths == expected, "100 parts: \(small); 1,000 parts: \(large)")
        #expect(large.headsDecoded == small.headsDecoded, "100 parts: \(small); 1,000 parts: \(large)")
        #expect(large.imagesKeyed == small.imagesKeyed && large.imagesKeyed <= GeneratedCatalog.partsPerMachine,
                "100 parts: \(small); 1,000 parts: \(large)")
        #expect(large.sourcesHashed == small.sourcesHashed, "\(large)")
        // State written in place: the changed bundle's image row, its snapshot row and the rest's.
        #expect(large.imageRowsWritten == small.imageRowsWritten && large.imageRowsWritten <= 1,
                "100 parts: \(small); 1,000 parts: \(large)")
        #expect(large.snapshotRowsWritten == small.snapshotRowsWritten && large.snapshotRowsWritten <= 2,
                "100 parts: \(small); 1,000 parts: \(large)")
        // Only the changed bundle's images and cover are looked up; the others' rows are taken as they are.
        #expect(large.imagesLookedUp == small.imagesLookedUp && large.imagesLookedUp <= GeneratedCatalog.partsPerMachine + 1,
                "100 parts: \(small); 1,000 parts: \(large)")
        #expect(large.machinesDigested == 1 && small.machinesDigested == 1, "100 parts: \(small); 1,000 parts: \(large)")
        // The commented part is read again from its files; its machine's other parts are taken
        // as the content cache stored them.
        #expect(large.partsRead == 1 && small.partsRead == 1, "100 parts: \(small); 1,000 parts: \(large)")
        // The walk for the review opens the build store, and the build goes on with that connection.
        #expect(large.storesOpened == 1 && small.storesOpened == 1, "100 parts: \(small); 1,000 parts: \(large)")
        // The first sync after the cold build: the cold build left a spare tree that mirrors the
        // published one, so none of the unchanged outputs is linked into it now.
        #expect(large.outputsCarried == 0 && small.outputsCarried == 0, "100 parts: \(small); 1,000 parts: \(large)")
        // The machine's comments are zipped again; its bundle's archive is found by its own key.
        #expect(large.archivesZipped == 1 && small.archivesZipped == 1, "100 parts: \(small); 1,000 parts: \(large)")
    }
}
