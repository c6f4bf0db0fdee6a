import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownMedia
@testable import TeardownBuild

/// A scratch copy of the minimal site with a second part, and a builder for it.
private struct Scratch {
    /// What this site's builds counted.
    let counts = Counts()
    let site: String
    let output: String

    init() throws {
        site = Fixtures.copy(Fixtures.site("minimal"))
        output = (site as NSString).deletingLastPathComponent + "/public"
        let parts = site + "/content/machines/box/parts"
        try FileManager.default.copyItem(atPath: parts + "/lid", toPath: parts + "/base")
        try FileManager.default.removeItem(atPath: parts + "/base/comments")
        try write("name: \"Base\"\nlayer:\n  image: lid.svg\n  z: 0\n", to: "content/machines/box/parts/base/part.yaml")
    }

    func write(_ text: String, to path: String) throws {
        let full = site + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Copies of the box machine under other names: bundles of their own, with the same content.
    func copyBox(as names: String...) throws {
        let machines = site + "/content/machines/"
        for name in names { try FileManager.default.copyItem(atPath: machines + "box", toPath: machines + name) }
    }

    /// The default part template with a line more: a change that renders the part pages again
    /// and leaves every bundle as it was.
    func editPartTemplate() throws {
        let defaultPart = try String(contentsOfFile: Fixtures.demoSite + "/Themes/default/templates/part.mustache", encoding: .utf8)
        try write(defaultPart.replacingOccurrences(of: "{{name}}</h1>", with: "{{name}}</h1><p>Drawn again.</p>"),
                  to: "Themes/default/templates/part.mustache")
    }

    @discardableResult
    func build(full: Bool = false, to folder: String? = nil) throws -> SiteBuilder.Report {
        let output = folder ?? self.output
        return try SiteBuilder(siteRoot: site, output: output, full: full, cacheFolder: output + ".cache",
                               counters: counts.counters).build()
    }

    func inode(_ path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: output + "/" + path)[.systemFileNumber] as? UInt64) ?? nil
    }
}

@Suite("Incremental builds")
struct IncrementalBuildTests {
    @Test("A second build with no change writes nothing")
    func noChange() throws {
        let scratch = try Scratch()
        let first = try scratch.build()
        #expect(first.written == first.pages + first.files)
        let second = try scratch.build()
        #expect(second.unchanged)
        #expect(second.written == 0)
    }

    @Test("Builds of one output at the same time take turns: each succeeds and the site is whole")
    func concurrentBuilds() throws {
        let scratch = try Scratch()
        try scratch.build()
        // A comment arrives (as a sync would file it) while other builds of the same site run.
        try scratch.write("---\nauthor: Ada\ndate: 2024-05-02\n---\nArrived during the builds.\n",
                          to: "content/machines/box/parts/lid/comments/late.md")
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do { try scratch.build() } catch { failures.withLock { $0.append("\(error)") } }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(Fixtures.read(scratch.output + "/machines/box/parts/lid/index.html").contains("Arrived during the builds."))
        let settled = try scratch.build()
        #expect(settled.unchanged && settled.written == 0)
        #expect(try scratch.build(full: true).pages == settled.pages)
    }

    @Test("A new comment rewrites its part's pages, its machine's page, discussion.json, feeds and comments' download, and the catalog, nothing else")
    func newComment() throws {
        let scratch = try Scratch()
        try scratch.build()
        let untouched = scratch.inode("machines/box/parts/base/index.html")
        let tag = scratch.inode("tags/test/index.html")
        let kept = ["machines/box/machine.json", "catalog.json", "downloads/box.zip"].map { ($0, scratch.inode($0)) }
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nA brand new remark.\n",
                          to: "content/machines/box/parts/lid/comments/new.md")
        let report = try scratch.build()
        // The lid page shows it; the machine page, the catalog and the machine view's
        // discussion.json count it; the feeds and the comments' download carry it. The tag
        // page's card leaves comment counts out; machine.json, the bundle's download and
        // catalog.json hold nothing of comments: none of them is rewritten.
        #expect(report.written == 7)
        for (path, inode) in kept { #expect(scratch.inode(path) == inode, "\(path) was not rewritten") }
        #expect(Fixtures.read(scratch.output + "/machines/box/parts/lid/index.html").contains("A brand new remark."))
        #expect(Fixtures.read(scratch.output + "/index.html").contains("2 comments"))
        #expect(scratch.inode("machines/box/parts/base/index.html") == untouched, "the base page was not rewritten")
        #expect(scratch.inode("tags/test/index.html") == tag, "the tag page was not rewritten")
    }

    @Test("A new comment on one machine decodes no other machine's text from the cache, nor its head again; a template edit decodes the texts")
    func textsReadOnDemand() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(atPath: scratch.site + "/content/machines/box",
                                         toPath: scratch.site + "/content/machines/crate")
        // Bundles changed in the last two seconds are read from their files, not the cache.
        Thread.sleep(forTimeInterval: 2.2)
        try scratch.build()
        let read = { scratch.counts[.textsRead] }
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nOnly the box.\n",
                          to: "content/machines/box/parts/lid/comments/new.md")
        // Stamped ahead, the box stays racy for the builds below, which read it from its files.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)],
                                              ofItemAtPath: scratch.site + "/content/machines/box/parts/lid/comments/new.md")
        let before = read()
        let heads = { scratch.counts[.headsDecoded] }
        let headsBefore = heads()
        try scratch.build()
        // The box is read from its files; the crate's catalog card, feed entries and counts come from its head.
        #expect(read() == before)
        #expect(heads() == headsBefore, "the crate's head, stored by the last build, is not decoded again in this process")
        #expect(Fixtures.read(scratch.output + "/feed.xml").contains("Only the box."))

        let defaultPart = try String(contentsOfFile: Fixtures.demoSite + "/Themes/default/templates/part.mustache", encoding: .utf8)
        try scratch.write(defaultPart.replacingOccurrences(of: "{{name}}</h1>", with: "{{name}}</h1><p>Drawn again.</p>"),
                          to: "Themes/default/templates/part.mustache")
        try scratch.build()
        #expect(read() == before + 1, "the crate's part pages show its text, so it is decoded once")
        #expect(Fixtures.read(scratch.output + "/machines/crate/parts/lid/index.html").contains("Drawn again."))
    }

    @Test("A comment reads its part again and takes the machine's other parts as stored, warnings included; a new canvas reads them all")
    func partsTakenFromCache() throws {
        let scratch = try Scratch()
        try scratch.write("name: \"Base\"\ncolour: grey\nlayer:\n  image: lid.svg\n  z: 0\n",
                          to: "content/machines/box/parts/base/part.yaml")
        // Parts changed in the last two seconds are read from their files, not the cache.
        Thread.sleep(forTimeInterval: 2.2)
        let first = try scratch.build()
        #expect(first.warnings.contains { $0.location.path.hasSuffix("parts/base/part.yaml") })
        let read = { scratch.counts[.partsRead] }
        var before = read()
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nOn the lid alone.\n",
                          to: "content/machines/box/parts/lid/comments/new.md")
        let commented = try scratch.build()
        #expect(read() == before + 1, "the lid is read again; the base is taken as stored")
        #expect(commented.warnings == first.warnings, "the base's warning is kept with it")
        #expect(Fixtures.read(scratch.output + "/machines/box/parts/lid/index.html").contains("On the lid alone."))

        // The base has no offset, so its layer is sized by the canvas: it is read again.
        before = read()
        try scratch.write("name: \"Box\"\nsummary: \"A box.\"\ncanvas: {width: 300, height: 100}\ntags: [test]\n",
                          to: "content/machines/box/machine.yaml")
        try scratch.build()
        #expect(read() == before + 2)
        let reference = (scratch.site as NSString).deletingLastPathComponent + "/reference"
        try scratch.build(full: true, to: reference)
        #expect(try Self.snapshot(scratch.output) == (try Self.snapshot(reference)))
    }

    @Test("A content cache entry's length field is read unsigned and must fit the file: a damaged one is a miss, not a crash")
    func damagedEntryLength() {
        func entry(_ length: UInt64, payload: Int) -> Data {
            withUnsafeBytes(of: length.littleEndian) { Data($0) } + Data(repeating: 0x41, count: payload)
        }
        #expect(ContentCache.headLength(of: entry(3, payload: 10)) == 3)
        #expect(ContentCache.headLength(of: entry(10, payload: 10)) == 10)
        #expect(ContentCache.headLength(of: entry(11, payload: 10)) == nil, "past the end")
        // Read as a signed Int, this length was negative, passed the check and crashed every build.
        #expect(ContentCache.headLength(of: entry(0xFFFF_FFFF_FFFF_FFF0, payload: 10)) == nil)
        #expect(ContentCache.headLength(of: entry(UInt64(Int.max) + 1, payload: 10)) == nil)
        #expect(ContentCache.headLength(of: Data([1, 0, 0])) == nil, "shorter than its length field")
    }

    @Test("A machine text whose cached bytes are damaged is read again from the bundle: the pages stay right")
    func damagedText() throws {
        let scratch = try Scratch()
        Thread.sleep(forTimeInterval: 2.2)
        try scratch.build()
        // Damage the end of the entry, where the text is, keeping its length: the head still decodes.
        let entry = scratch.output + ".cache/content/box.bundle"
        var data = try Data(contentsOf: URL(fileURLWithPath: entry))
        data[data.count - 3] ^= 0x55
        try data.write(to: URL(fileURLWithPath: entry))
        try scratch.editPartTemplate()
        try scratch.build()
        let reference = (scratch.site as NSString).deletingLastPathComponent + "/reference"
        try scratch.build(full: true, to: reference)
        #expect(try Self.snapshot(scratch.output) == (try Self.snapshot(reference)))
    }

    @Test("A path is inside a bundle only by plain names")
    func plainPaths() {
        for (path, plain) in [("/s/box/a.svg", true), ("/s/box/parts/lid/.hidden", true), ("/s/box/..a", true),
                              ("/s/box", false), ("/s/box/", false), ("/s/boxes/a", false), ("/s/box/../x", false),
                              ("/s/box/a/./b", false), ("/s/box/a//b", false), ("/s/box/a/", false), ("/s/box/a/..", false),
                              ("/s/box/.", false), ("/etc/passwd", false)] {
            #expect(MachineHead.isPlain(path, below: "/s/box") == plain, "\(path)")
        }
    }

    /// Writes the content cache entry `stored` to `file` with `brief` and `head` (its digest and
    /// length made to match, as a forger would), then `rest` (the text) as it was.
    private static func rewrite(_ file: String, _ stored: ContentCache.Entry, brief: MachineBrief, head: Data, then rest: Data) throws {
        let resigned = try BinaryEncoder().encode(ContentCache.Entry(
            format: stored.format, key: stored.key, signature: stored.signature, slug: stored.slug, folder: stored.folder,
            brief: brief, head: ContentDigest(bytes: head), headLength: head.count, text: stored.text,
            diagnostics: stored.diagnostics, parts: stored.parts))
        var bytes = Data()
        withUnsafeBytes(of: UInt64(resigned.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes += resigned + head + rest
        try bytes.write(to: URL(fileURLWithPath: file))
    }

    @Test("A forged content cache entry naming a file outside its bundle is a miss: the file is neither read nor published")
    func forgedEntryPath() throws {
        let scratch = try Scratch()
        Thread.sleep(forTimeInterval: 2.2)
        try scratch.build()
        // The lid's layer path in the entry, swapped for one of the same length outside the site.
        let layer = scratch.site + "/content/machines/box/parts/lid/lid.svg"
        let outside = Fixtures.temporaryFolder()
        let padding = layer.utf8.count - outside.utf8.count - "/.svg".utf8.count
        try #require(padding > 0)
        let forged = outside + "/" + String(repeating: "x", count: padding) + ".svg"
        try "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\"><title>FORGED-SECRET</title></svg>"
            .write(toFile: forged, atomically: true, encoding: .utf8)
        let entry = scratch.output + ".cache/content/box.bundle"
        var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: entry)))
        let from = Array(layer.utf8), to = Array(forged.utf8)
        var replaced = 0
        var index = 0
        while index + from.count <= data.count {
            if Array(data[index..<index + from.count]) == from {
                data.replaceSubrange(index..<index + from.count, with: to)
                replaced += 1
                index += from.count
            } else {
                index += 1
            }
        }
        try #require(replaced > 0)
        // The head's digest made to match, as a forger would: its paths are checked as it is decoded.
        let length = try #require(ContentCache.headLength(of: Data(data)))
        let (stored, _) = try #require(ContentCache.decode(head: Data(data[8..<8 + length])))
        let head = Data(data[8 + length..<8 + length + stored.headLength])
        try Self.rewrite(entry, stored, brief: stored.brief, head: head, then: Data(data[(8 + length + head.count)...]))
        ContentCache.forgetDecoded(in: scratch.output + ".cache/content")
        // A change elsewhere, so that the build loads, and takes the box from the cache if it can.
        try scratch.editPartTemplate()
        let report = try scratch.build()
        #expect(report.notices.contains { $0.contains("box") }, "\(report.notices)")
        for file in try FileManager.default.subpathsOfDirectory(atPath: scratch.output) {
            let path = scratch.output + "/" + file
            guard FileSystem.isRegularFile(path), let data = FileManager.default.contents(atPath: path) else { continue }
            #expect(!String(decoding: data, as: UTF8.self).contains("FORGED-SECRET"), "\(file)")
        }
    }

    @Test("A content cache entry whose brief names a cover outside its bundle is a miss, its head untouched")
    func forgedBriefCover() throws {
        let scratch = try Scratch()
        Thread.sleep(forTimeInterval: 2.2)
        try scratch.build()
        let entry = scratch.output + ".cache/content/box.bundle"
        let data = try Data(contentsOf: URL(fileURLWithPath: entry))
        let length = try #require(ContentCache.headLength(of: data))
        let (stored, _) = try #require(ContentCache.decode(head: data.subdata(in: 8..<8 + length)))
        let headBytes = data.subdata(in: 8 + length..<8 + length + stored.headLength)
        let head = try BinaryDecoder().read(MachineHead.self, from: headBytes)
        let outside = Fixtures.temporaryFolder() + "/secret.jpg"
        // The brief of a head naming a cover outside; the head itself stays as the build wrote it.
        let forgedHead = MachineHead(slug: head.slug, folder: head.folder, source: head.source, name: head.name, summary: head.summary,
                                     canvas: head.canvas, tags: head.tags, designer: head.designer, license: head.license,
                                     updated: head.updated, cover: SourceFile(absolutePath: outside, displayPath: "secret.jpg"),
                                     parts: head.parts, photos: head.photos, commentCount: head.commentCount,
                                     textDigest: head.textDigest, descriptionDigest: head.descriptionDigest, recent: head.recent,
                                     commentIDs: head.commentIDs, manual: head.manual, listing: head.listing)
        try Self.rewrite(entry, stored, brief: MachineBrief(forgedHead), head: headBytes,
                         then: data.subdata(in: (8 + length + stored.headLength)..<data.count))
        ContentCache.forgetDecoded(in: scratch.output + ".cache/content")
        try scratch.editPartTemplate()
        let report = try scratch.build()
        #expect(report.notices.contains { $0.contains("box") }, "\(report.notices)")
        #expect(!Fixtures.read(scratch.output + "/index.html").contains("secret"))
    }

    @Test("A changed template re-renders only the pages that use it")
    func changedTemplate() throws {
        let scratch = try Scratch()
        try scratch.build()
        let defaultManual = try String(contentsOfFile: Fixtures.demoSite + "/Themes/default/templates/manual.mustache",
                                       encoding: .utf8)
        try scratch.write(defaultManual.replacingOccurrences(of: "</article>", with: "<p>Printed in the manual.</p></article>"),
                          to: "Themes/default/templates/manual.mustache")
        let report = try scratch.build()
        #expect(report.written == 2, "the minimal site's one manual page and the manual's contents page")
        #expect(Fixtures.read(scratch.output + "/manual/index.html").contains("Printed in the manual."))
    }

    @Test("A changed site.yaml re-renders every page that shows a setting; catalog.schema.json and discussion.json show none")
    func changedSettings() throws {
        let scratch = try Scratch()
        let first = try scratch.build()
        let schema = scratch.output + "/catalog.schema.json"
        let inode = { try FileManager.default.attributesOfItem(atPath: schema)[.systemFileNumber] as? Int }
        let before = try inode()
        try scratch.write("title: \"Renamed catalog\"\nbase_url: \"https://example.org/catalog/\"\n", to: "content/site.yaml")
        let report = try scratch.build()
        #expect(report.written == first.pages - 2)
        // Carried over as a link to the published file, not written again.
        #expect(try inode() == before)
        #expect(Fixtures.read(scratch.output + "/machines/box/parts/base/index.html").contains("Renamed catalog"))
    }

    @Test("A deleted part's pages and layer disappear from the output")
    func deletedPart() throws {
        let scratch = try Scratch()
        try scratch.build()
        #expect(TextFile.exists(scratch.output + "/machines/box/parts/base/index.html"))
        try FileManager.default.removeItem(atPath: scratch.site + "/content/machines/box/parts/base")
        let report = try scratch.build()
        #expect(report.removed == 3, "the page, the layer image and the A-Z index's page of the letter B")
        #expect(!TextFile.exists(scratch.output + "/machines/box/parts/base"))
        #expect(!Fixtures.read(scratch.output + "/machines/box/index.html").contains("Base"))
    }

    @Test("After a series of edits, the incremental output equals a full build, file for file")
    func incrementalEqualsFull() throws {
        let scratch = try Scratch()
        try scratch.build()
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nFirst.\n", to: "content/machines/box/parts/lid/comments/a.md")
        try scratch.build()
        try scratch.write("# Help\n\nEdited.\n", to: "content/manual/index.md")
        try scratch.write("# More\n\nA second page.\n", to: "content/manual/more.md")
        try scratch.build()
        try FileManager.default.removeItem(atPath: scratch.site + "/content/machines/box/parts/lid/comments/hello.md")
        try scratch.write("The base, described.\n", to: "content/machines/box/parts/base/description.md")
        try scratch.build()
        try scratch.build()

        let reference = (scratch.site as NSString).deletingLastPathComponent + "/reference"
        try scratch.build(full: true, to: reference)
        let incremental = try Self.snapshot(scratch.output)
        #expect(incremental == (try Self.snapshot(reference)))
        #expect(incremental.keys.contains("manual/more/index.html"))
    }

    @Test("Each page's recorded reads name what it shows: the lid's text is read by the lid's pages, not the base's")
    func recordedReads() throws {
        let scratch = try Scratch()
        try scratch.build()
        let reads = try #require(Self.storedReads(scratch))
        func readers(_ key: String) -> Set<String> { Set(reads.filter { $0.value.contains(key) }.keys) }
        let lid = readers("p/box/lid/text")
        #expect(lid.contains("machines/box/parts/lid/index.html"))
        #expect(lid.contains("machines/box/discussion.json"), "the machine view shows every part's newest comments")
        #expect(!lid.contains("machines/box/machine.json"), "machine.json shows no comment")
        #expect(readers("p/box/lid/description").contains("machines/box/machine.json"), "it shows every part's description")
        #expect(!lid.contains("machines/box/parts/base/index.html"))
        #expect(!lid.contains("index.html"), "the catalog shows counts, not comments")
        #expect(readers("template/part") == ["machines/box/parts/base/index.html", "machines/box/parts/lid/index.html"])
        #expect(readers("settings").contains("robots.txt"))
        #expect(!readers("settings").contains("catalog.schema.json"))
    }

    @Test("A new comment keys only its own bundle's images; the others keep the keys their unchanged bundles had")
    func imageKeysByBundle() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(atPath: scratch.site + "/content/machines/box",
                                         toPath: scratch.site + "/content/machines/crate")
        // Bundles changed in the last two seconds are not vouched for by their signatures.
        Thread.sleep(forTimeInterval: 2.2)
        let keyed = { scratch.counts[.imagesKeyed] }
        let start = keyed()
        try scratch.build()
        let all = keyed() - start
        #expect(all > 0)
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nOnly the box.\n",
                          to: "content/machines/box/parts/lid/comments/new.md")
        let before = keyed()
        let report = try scratch.build()
        #expect(report.written > 0)
        #expect(keyed() - before == all / 2, "the box's images only, of two bundles alike")
        let reference = (scratch.site as NSString).deletingLastPathComponent + "/reference"
        try scratch.build(full: true, to: reference)
        #expect(try Self.snapshot(scratch.output) == (try Self.snapshot(reference)))
    }

    @Test("Unchanged bundles keep their unit digests from the store; an edited, added or removed one, or site.yaml, is digested")
    func unitsCarriedByBundle() throws {
        let scratch = try Scratch()
        let machines = scratch.site + "/content/machines/"
        // Without a search index: the machines of a shard indexed again are planned (SearchIndexTests).
        try scratch.write(Fixtures.read(scratch.site + "/content/site.yaml") + "search: false\n", to: "content/site.yaml")
        try scratch.copyBox(as: "crate", "chest")
        // Bundles changed in the last two seconds are not vouched for by their signatures.
        Thread.sleep(forTimeInterval: 2.2)
        #expect(try scratch.build().machinesDigested == 3)
        let reference = (scratch.site as NSString).deletingLastPathComponent + "/reference"
        @discardableResult
        func matchesFullBuild(_ step: String) throws -> SiteBuilder.Report {
            let full = try scratch.build(full: true, to: reference)
            #expect(try Self.snapshot(scratch.output) == (try Self.snapshot(reference)), "after \(step)")
            return full
        }
        /// The machines a build planned, and whether it planned them all again after carrying some.
        func planned(_ build: () throws -> SiteBuilder.Report) throws -> (machines: Int, again: Int, report: SiteBuilder.Report) {
            let machines = scratch.counts[.machinesPlanned], again = scratch.counts[.wholePlans]
            let report = try build()
            return (scratch.counts[.machinesPlanned] - machines, scratch.counts[.wholePlans] - again, report)
        }
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nOnly the box.\n",
                          to: "content/machines/box/parts/lid/comments/new.md")
        let comment = try planned { try scratch.build() }
        #expect(comment.report.machinesDigested == 1, "the box alone")
        #expect(comment.machines == 1 && comment.again == 0, "the other machines' outputs carried unplanned")
        let full = try matchesFullBuild("a comment")
        #expect((comment.report.pages, comment.report.files) == (full.pages, full.files), "carried machines' outputs counted")
        // Downloads are pruned only by a build that finds every machine's: one comes every hour.
        let stamp = CacheLayout(root: scratch.output + ".cache").downloads + "/.pruned"
        try String(Date().timeIntervalSince1970 - BundleDownloads.pruneInterval - 60).write(toFile: stamp, atomically: true,
                                                                                               encoding: .utf8)
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-02\n---\nA prune is due.\n",
                          to: "content/machines/box/parts/lid/comments/later.md")
        #expect(try planned { try scratch.build() }.machines == 3, "every machine planned, for the prune")
        #expect(BundleDownloads(cache: CacheLayout(root: scratch.output + ".cache").downloads).pruneDue() == false)
        try matchesFullBuild("a comment with a prune due")
        Thread.sleep(forTimeInterval: 2.2)
        try scratch.editPartTemplate()
        #expect(try planned { try scratch.build() }.again == 1, "a template edit renders carried machines' part pages")
        try matchesFullBuild("a template edit")
        try FileManager.default.removeItem(atPath: machines + "crate")
        let removed = try planned { try scratch.build() }
        #expect(removed.report.machinesDigested <= 1 && removed.report.removed > 0)
        #expect(removed.again == 1, "only a plan of every machine names the outputs gone")
        try matchesFullBuild("a removed machine")
        try FileManager.default.copyItem(atPath: machines + "chest", toPath: machines + "crate")
        #expect(try scratch.build().machinesDigested <= 2, "the new crate, and the box if it is still settling")
        try matchesFullBuild("a machine added back")
        try scratch.write(Fixtures.read(scratch.site + "/content/site.yaml") + "\nphotos: {widths: [320, 480]}\n",
                          to: "content/site.yaml")
        #expect(try scratch.build().machinesDigested == 3, "photo sizes change every machine's images")
        try matchesFullBuild("a changed site.yaml")
    }

    @Test("The site index is taken as stored until a name or tag changes; a damaged one is made again")
    func siteIndexStored() throws {
        let scratch = try Scratch()
        try scratch.copyBox(as: "crate")
        try scratch.build()
        let reference = (scratch.site as NSString).deletingLastPathComponent + "/reference"
        func matchesFullBuild(_ step: String) throws {
            try scratch.build(full: true, to: reference)
            #expect(try Self.snapshot(scratch.output) == (try Self.snapshot(reference)), "after \(step)")
        }
        /// How many site indexes a build made (the others were read as stored).
        func made(_ step: () throws -> Void) throws -> Int {
            let before = scratch.counts[.siteIndexesMade]
            try step()
            try scratch.build()
            return scratch.counts[.siteIndexesMade] - before
        }
        #expect(try made {
            try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nNo name changes.\n",
                              to: "content/machines/box/parts/lid/comments/new.md")
        } == 0, "a comment leaves every listing as it was")
        try matchesFullBuild("a comment")
        #expect(try made {
            try scratch.write("name: \"Zinc base\"\nlayer:\n  image: lid.svg\n  z: 0\n", to: "content/machines/box/parts/base/part.yaml")
        } == 1, "a part renamed moves it in A-Z")
        try matchesFullBuild("a part renamed")
        #expect(try made {
            try scratch.write("name: \"Zinc base\"\ntags: [zinc]\nlayer:\n  image: lid.svg\n  z: 0\n",
                              to: "content/machines/box/parts/base/part.yaml")
        } == 1, "a tag added gives the tag a page")
        try matchesFullBuild("a tag added")
        #expect(try made {
            try FileManager.default.removeItem(atPath: scratch.site + "/content/machines/crate")
        } == 1, "a machine removed leaves the lists")
        try matchesFullBuild("a machine removed")
        let file = CacheLayout(root: scratch.output + ".cache").siteIndex
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[bytes.count / 2] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(try made {
            try scratch.write("---\nauthor: Grace\ndate: 2024-06-02\n---\nAfter the damage.\n",
                              to: "content/machines/box/parts/lid/comments/later.md")
        } == 1, "a damaged index is made again")
        try matchesFullBuild("a damaged site index")
    }

    @Test("A full build trusts nothing stored but records it: the comment after it costs what later ones cost")
    func fullBuildRecordsWhatTheNextCarries() throws {
        let scratch = try Scratch()
        try scratch.copyBox(as: "crate", "chest")
        try scratch.build()
        Thread.sleep(forTimeInterval: 2.2)
        let keyedBefore = scratch.counts[.imagesKeyed]
        let full = try scratch.build(full: true)
        let keyedByFull = scratch.counts[.imagesKeyed] - keyedBefore
        #expect(full.machinesDigested == 3 && keyedByFull > 0 && keyedByFull % 3 == 0, "every image keyed again")
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nAfter a full build.\n",
                          to: "content/machines/crate/parts/lid/comments/new.md")
        let keyedAfterFull = scratch.counts[.imagesKeyed]
        let next = try scratch.build()
        #expect(next.machinesDigested == 1, "the crate alone")
        #expect(scratch.counts[.imagesKeyed] - keyedAfterFull == keyedByFull / 3, "the other bundles' images carried from the index")
        try scratch.build(full: true, to: (scratch.site as NSString).deletingLastPathComponent + "/reference")
        #expect(try Self.snapshot(scratch.output)
                == (try Self.snapshot((scratch.site as NSString).deletingLastPathComponent + "/reference")))
    }

    @Test("A build that reads every bundle keeps each text in the content cache, read back as its pages render")
    func textsStreamedThroughTheCache() throws {
        let scratch = try Scratch()
        let machines = scratch.site + "/content/machines/"
        // More machines than texts are kept decoded at once (`RecentlyDecoded.limit`).
        let count = RecentlyDecoded.limit + 6
        for number in 1...count {
            try FileManager.default.copyItem(atPath: machines + "box", toPath: machines + "box\(number)")
            try scratch.write("Box number \(number), described on its own.\n", to: "content/machines/box\(number)/description.md")
        }
        try scratch.build()
        Thread.sleep(forTimeInterval: 2.2)
        let readBefore = scratch.counts[.textsRead]
        let full = try scratch.build(full: true)
        #expect(full.machinesDigested == count + 1)
        // Each machine's pages read its text back from the entry the load stored; none is held
        // from the load (a mutant that keeps the loaded machine reads none).
        #expect(scratch.counts[.textsRead] - readBefore >= count + 1, "texts read back: \(scratch.counts[.textsRead] - readBefore)")
        for number in 1...count {
            let page = try String(contentsOfFile: scratch.output + "/machines/box\(number)/index.html", encoding: .utf8)
            #expect(page.contains("Box number \(number), described on its own."), "box\(number)")
        }
        // The entries the full build stored are what the next build takes: a comment reads one bundle.
        try scratch.write("---\nauthor: Grace\ndate: 2024-06-01\n---\nAfter a full build.\n",
                          to: "content/machines/box3/parts/lid/comments/new.md")
        let partsBefore = scratch.counts[.partsRead]
        try scratch.build()
        #expect(scratch.counts[.partsRead] - partsBefore == 1, "the commented part alone")
    }

    @Test("A corrupt or missing dependency index renders every page again, and the site stays right")
    func corruptDependencyIndex() throws {
        let scratch = try Scratch()
        let first = try scratch.build()
        for damage in ["truncated", "missing", "garbage"] {
            try scratch.write("---\nauthor: Ada\ndate: 2024-05-0\(damage.count % 9 + 1)\n---\nThe index was \(damage).\n",
                              to: "content/machines/box/parts/lid/comments/\(damage).md")
            let path = try #require(Self.storePath(scratch))
            switch damage {
            case "missing":
                try BuildStore.remove(path)
            case "garbage":
                try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
            default:
                // Half the file, without the write-ahead log that the last build left beside it.
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                try BuildStore.remove(path)
                try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
            }
            let report = try scratch.build()
            #expect(report.written >= first.pages, "every page rendered again (\(damage))")
            let reference = (scratch.site as NSString).deletingLastPathComponent + "/reference-\(damage)"
            try scratch.build(full: true, to: reference)
            #expect(try Self.snapshot(scratch.output) == (try Self.snapshot(reference)))
            // The next change is incremental again.
            try scratch.write("---\nauthor: Ada\ndate: 2024-05-09\n---\nAfter \(damage).\n",
                              to: "content/machines/box/parts/lid/comments/after-\(damage).md")
            #expect(try scratch.build().written < first.pages)
        }
    }

    /// The output's build store, in its cache folder.
    private static func storePath(_ scratch: Scratch) -> String? {
        let folder = scratch.output + ".cache/outputs"
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix("/state.sqlite") { return folder + "/" + path }
        }
        return nil
    }

    /// What each page of the published tree read, as the store holds it.
    private static func storedReads(_ scratch: Scratch) -> [String: Set<String>]? {
        storePath(scratch).flatMap { try? BuildStore.open($0).0.reads() }
    }

    @Test("The site's feed reads one feed unit per machine and catalog.json one gallery unit, not every part's text and photos")
    func feedReadsOneUnitPerMachine() throws {
        let scratch = try Scratch()
        try scratch.build()
        let reads = try #require(Self.storedReads(scratch))
        for (page, unit) in [("feed.xml", "m/box/feed"), ("catalog.json", "m/box/gallery")] {
            let read = try #require(reads[page])
            #expect(read.contains(unit), "\(page) reads the machine's \(unit)")
            #expect(!read.contains { $0.hasPrefix("p/") }, "\(page) reads no part's unit")
        }
        #expect(reads["catalog.json"]?.contains("m/box/counts") == false, "catalog.json counts no comments")
        // And a comment still reaches the feed, and leaves catalog.json as it was.
        let catalog = Fixtures.read(scratch.output + "/catalog.json")
        try scratch.write("---\nauthor: Grace\ndate: 2030-06-01\n---\nNewest of all.\n",
                          to: "content/machines/box/parts/lid/comments/newest.md")
        try scratch.build()
        #expect(Fixtures.read(scratch.output + "/feed.xml").contains("Newest of all."))
        #expect(Fixtures.read(scratch.output + "/catalog.json") == catalog)
    }

    @Test("--full renders everything again")
    func fullBuild() throws {
        let scratch = try Scratch()
        let first = try scratch.build()
        let report = try scratch.build(full: true)
        #expect(report.written == first.written)
    }

    /// Every file below `root` with its bytes.
    /// Every file but Pagefind's index, whose file names depend on the order it happened to
    /// read pages in (SearchIndexTests checks the index itself); the search page's names of
    /// its files are left out with it.
    static func snapshot(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            if path.hasPrefix("pagefind/") { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            }
        }
        if let page = files["search/index.html"] {
            let named = String(decoding: page, as: UTF8.self)
                .replacing(/\?ts=[0-9a-f]+|pagefind\.[A-Za-z0-9_-]+\.pf_meta|data-cache-tag="[0-9a-f]+"|<meta name="teardown-chunks"[^>]*>/, with: "(index)")
                // The recent shard (`RecentShard`): a full build has none.
                .replacing(/\sdata-superseded="[^"]*"|\s\.\.\/pagefind\/recent\//, with: "")
            files["search/index.html"] = Data(named.utf8)
        }
        return files
    }
}
