import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild
@testable import TeardownInbox

/// A scratch site (the minimal fixture) and an inbox folder beside it.
private struct SyncScratch {
    let site: String
    let inbox: String

    init() throws {
        site = Fixtures.copy(Fixtures.site("minimal"))
        inbox = (site as NSString).deletingLastPathComponent + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
    }

    func put(_ name: String, _ text: String) throws { try put(name, Data(text.utf8)) }

    func put(_ name: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: inbox + "/" + name))
    }

    func comment(_ id: String, part: String? = "lid", author: String = "Ada", date: String = "2025-03-01",
                 body: String = "A fine lid.") throws {
        try put("\(id).comment.md", "---\nmachine: box\n\(part.map { "part: \($0)\n" } ?? "")author: \(author)\ndate: \(date)\n---\n\(body)\n")
    }

    /// Writes manifest.json listing every file of the inbox with its SHA-256, grouped by id.
    func writeManifest(extra: [[String: Any]] = []) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: inbox).filter { $0 != "manifest.json" }.sorted()
        var groups: [String: [String]] = [:]
        for name in names { groups[String(name.split(separator: ".")[0]), default: []].append(name) }
        let submissions: [[String: Any]] = groups.keys.sorted().map { id in
            let files = groups[id]!
            var sums: [String: String] = [:]
            for file in files { sums[file] = SHA256Hex.of(FileManager.default.contents(atPath: inbox + "/" + file)!) }
            return ["id": id, "files": files, "sha256": sums]
        } + extra
        let data = try JSONSerialization.data(withJSONObject: ["version": 1, "submissions": submissions], options: [.sortedKeys])
        try put("manifest.json", data)
    }

    /// What this scratch site's syncs counted.
    let counts = Counts()

    func sync(from source: String? = nil, dryRun: Bool = false) throws -> SyncReport {
        let cache = site + "/.teardown-cache"
        return try Syncer(siteRoot: site, source: Inbox.source(source ?? inbox, scratch: cache + "/downloads"),
                          counters: counts.counters)
            .run(dryRun: dryRun)
    }

    func build() throws -> String {
        let output = (site as NSString).deletingLastPathComponent + "/public"
        try SiteBuilder(siteRoot: site, output: output).build()
        return output
    }

    /// Syncs and builds as `teardown sync` does: one walk for the review and the build, which
    /// looks again only at the paths sync filed or removed.
    func syncAndBuild() throws -> (SyncReport, String) {
        let output = (site as NSString).deletingLastPathComponent + "/public"
        let builder = SiteBuilder(siteRoot: site, output: output)
        let inputs = builder.walkInputs()
        let report = try Syncer(siteRoot: site, source: Inbox.source(inbox, scratch: site + "/.teardown-cache/downloads"))
            .run(dryRun: false, inputs: inputs)
        try builder.build(inputs: inputs, changed: report.filed.map { site + "/" + $0 })
        return (report, output)
    }

    var content: [String: Data] { (try? IncrementalBuildTests.snapshot(site + "/content")) ?? [:] }
}

/// The smallest PNG header that says 2x1 pixels: enough for the size checks.
/// A real PNG of 2 x 1 pixels (a red and a blue one): sync decodes every photo it accepts.
private let tinyPNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGM4ISf3X07uxH8AECsEBxOnYNoAAAAASUVORK5CYII=")!

@Suite("Syncing community content")
struct SyncTests {
    @Test("Accepted comments land in their bundle and on the page; a second sync changes nothing")
    func syncTwice() throws {
        let scratch = try SyncScratch()
        try scratch.comment("c1", body: "Synced remark about the hinge.")
        try scratch.comment("c2", part: nil, body: "About the whole box.")
        let first = try scratch.sync()
        #expect(first.count(.accept) == 2)
        #expect(first.changedContent)
        let page = Fixtures.read(try scratch.build() + "/machines/box/parts/lid/index.html")
        #expect(page.contains("Synced remark about the hinge."))

        let before = scratch.content
        let second = try scratch.sync()
        #expect(second.count(.accept) == 0)
        #expect(second.count(.alreadyPresent) == 2)
        #expect(!second.changedContent)
        #expect(scratch.content == before)
    }

    @Test("A comment written on Windows, with a byte order mark and CRLF line ends, is accepted like any other")
    func windowsLineEnds() throws {
        let scratch = try SyncScratch()
        try scratch.put("w1.comment.md", "\u{FEFF}---\r\nmachine: box\r\npart: lid\r\nauthor: Ada\r\ndate: 2025-03-01\r\n---\r\nFrom Windows.\r\n")
        let report = try scratch.sync()
        #expect(report.count(.accept) == 1, "\(report.actions)")
        let page = Fixtures.read(try scratch.build() + "/machines/box/parts/lid/index.html")
        #expect(page.contains("<p>From Windows.</p>"))
    }

    @Test("A dry run reports the plan and changes nothing")
    func dryRun() throws {
        let scratch = try SyncScratch()
        try scratch.comment("c1")
        try scratch.comment("c2", part: "ghost")
        let before = scratch.content
        let report = try scratch.sync(dryRun: true)
        #expect(report.count(.accept) == 1)
        #expect(report.count(.reject) == 1)
        #expect(scratch.content == before)
        #expect(!TextFile.exists(scratch.site + "/content/.quarantine"))
    }

    @Test("A takedown removes the comment and its rendered text")
    func takedown() throws {
        let scratch = try SyncScratch()
        try scratch.comment("c1", body: "Regrettable words.")
        _ = try scratch.sync()
        #expect(Fixtures.read(try scratch.build() + "/machines/box/parts/lid/index.html").contains("Regrettable words."))

        try FileManager.default.removeItem(atPath: scratch.inbox + "/c1.comment.md")
        try scratch.put("t1.takedown.yaml", "target: c1\nreason: asked by the author\n")
        // The build after the takedown looks only at the paths sync reports, as the command's does.
        let (report, output) = try scratch.syncAndBuild()
        #expect(report.count(.takeDown) == 1)
        #expect(report.filed.count == 1 && report.filed[0].hasPrefix("content/machines/box/parts/lid/comments/"))
        let comments = try FileManager.default.contentsOfDirectory(atPath: scratch.site + "/content/machines/box/parts/lid/comments")
        #expect(comments == ["hello.md"])
        #expect(!Fixtures.read(output + "/machines/box/parts/lid/index.html").contains("Regrettable words."))
    }

    @Test("A takedown whose download fails is not recorded as done: the next sync takes its target down")
    func takedownFetchedOnce() throws {
        let scratch = try SyncScratch()
        try scratch.comment("c1", body: "Posted and withdrawn at once.")
        try scratch.put("t1.takedown.yaml", "target: c1\nreason: asked by the author\n")
        try scratch.writeManifest()
        let server = try LocalServer(.flaky, serving: scratch.inbox)
        defer { server.stop() }
        let first = try scratch.sync(from: "http://\(server.url)/")
        #expect(first.actions.first { $0.id == "t1" }?.kind == .reject, "its download failed: \(first.actions)")
        let second = try scratch.sync(from: "http://\(server.url)/")
        #expect(second.actions.first { $0.id == "t1" }?.kind == .takeDown, "\(second.actions)")
        let comments = try FileManager.default.contentsOfDirectory(atPath: scratch.site + "/content/machines/box/parts/lid/comments")
        #expect(comments == ["hello.md"], "the withdrawn comment is gone")
    }

    @Test("A takedown reaches only what sync filed: never a hand-written comment or a designer's photo named by its file")
    func takedownSparesOwnersContent() throws {
        let scratch = try SyncScratch()
        let lid = scratch.site + "/content/machines/box/parts/lid"
        try FileManager.default.createDirectory(atPath: lid + "/photos", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.site("photos") + "/content/machines/camera/parts/body/photos/workbench.jpg", toPath: lid + "/photos/on-counter.jpg")
        // The hand-written comment is hello.md; the photo's name is public in its page's URL.
        try scratch.put("t1.takedown.yaml", "target: hello\n")
        try scratch.put("t2.takedown.yaml", "target: on-counter\n")
        let report = try scratch.sync()
        #expect(report.count(.takeDown) == 0)
        #expect(report.count(.alreadyPresent) == 2)
        #expect(report.actions.allSatisfy { $0.detail.contains("is not content sync filed") }, "\(report.actions)")
        #expect(FileManager.default.fileExists(atPath: lid + "/comments/hello.md"))
        #expect(FileManager.default.fileExists(atPath: lid + "/photos/on-counter.jpg"))
    }

    @Test("Each bad submission is quarantined with its reason", arguments: [
        ("long", "comment is 201 characters long; the limit is 1-200"),
        ("ghost", "unknown part 'ghost' of machine 'box'"),
        ("baddate", "'date' is not an ISO 8601 date"),
        ("notimage", "notimage.png: not a PNG image"),
        ("slip", "file name '../x' has path components"),
        ("hello", "duplicate: id 'hello' is already used by content/machines/box/parts/lid/comments/hello.md"),
        ("escape", "the author's name contains the control character U+001B"),
        ("vt", "the comment contains the control character U+000B"),
        ("zalgo", "the author's name has a character made of more than 10 code points"),
        ("stuffed", "the comment is"),
        ("invisible", "the author's name has nothing visible in it"),
        ("filler", "the comment has nothing visible in it"),
        ("override", "the comment contains the control character U+202E"),
        ("zerowidth", "the author's name contains the invisible character U+200B"),
        ("joined", "the author's name contains the invisible character U+200D"),
        ("separator", "the author's name contains the line break U+2028"),
        ("future", "the date 9999-12-31 is in the future"),
        ("caption", "the caption is 301 characters long; the limit is 300"),
    ])
    func quarantine(_ id: String, _ reason: String) throws {
        let scratch = try SyncScratch()
        switch id {
        case "long": try scratch.comment(id, body: String(repeating: "x", count: 201))
        case "ghost": try scratch.comment(id, part: "ghost")
        case "baddate": try scratch.comment(id, date: "2025-02-30")
        case "notimage":
            try scratch.put("notimage.png", "GIF89a, or text pretending")
            try scratch.put("notimage.photo.yaml", "machine: box\nauthor: Ada\ndate: 2025-03-01\nfile: notimage.png\n")
        case "hello": try scratch.comment(id, body: "Same id as the fixture's comment, other words.")
        case "escape": try scratch.comment(id, author: "\"Ada\\e]0;x\\a\"")
        case "vt": try scratch.comment(id, body: "Vertical\u{B}tab")
        // One letter with twelve accents: one character by count, within the bytes.
        case "zalgo": try scratch.comment(id, author: "Z" + String(repeating: "\u{301}", count: 12))
        // 200 characters, each a letter and eight accents: within the count, not the bytes.
        case "stuffed": try scratch.comment(id, body: String(repeating: "a" + String(repeating: "\u{301}", count: 8), count: 200))
        case "invisible": try scratch.comment(id, author: "\"\u{200D}\u{200C}\u{2060}\"")
        case "filler": try scratch.comment(id, body: String(repeating: "\u{3164}", count: 20))
        case "override": try scratch.comment(id, body: "Fine \u{202E}txt.exe")
        // Both read as "Ada".
        case "zerowidth": try scratch.comment(id, author: "\"A\u{200B}da\"")
        case "joined": try scratch.comment(id, author: "\"A\u{200D}da\"")
        case "separator": try scratch.comment(id, author: "\"Ada\u{2028}Lovelace\"")
        case "future": try scratch.comment(id, date: "9999-12-31")
        case "caption":
            try scratch.put("caption.png", tinyPNG)
            try scratch.put("caption.photo.yaml", "machine: box\nauthor: Ada\ndate: 2025-03-01\nfile: caption.png\ncaption: \""
                            + String(repeating: "c", count: 301) + "\"\n")
        default: break
        }
        try scratch.writeManifest(extra: id == "slip" ? [["id": "slip", "files": ["../x"]]] : [])
        let report = try scratch.sync()
        let rejected = report.actions.filter { $0.kind == .reject }
        #expect(rejected.map(\.id) == [id])
        #expect(rejected.first?.detail.contains(reason) == true, "\(rejected)")
        let note = Fixtures.read(scratch.site + "/content/.quarantine/\(id).reason")
        #expect(note.contains(reason))
        #expect(report.count(.accept) == 0)
    }

    @Test("A submission wrong in several ways is quarantined with every reason, not only the first")
    func everyReason() throws {
        let scratch = try SyncScratch()
        try scratch.comment("several", author: "\"A\u{200B}da\"", date: "9999-12-31", body: String(repeating: "x", count: 201))
        try scratch.writeManifest(extra: [])
        let report = try scratch.sync()
        let note = Fixtures.read(scratch.site + "/content/.quarantine/several.reason")
        for reason in ["the author's name contains the invisible character U+200B", "comment is 201 characters long; the limit is 1-200",
                       "the date 9999-12-31 is in the future"] {
            #expect(note.contains(reason), "\(note)")
            #expect(report.actions.first { $0.kind == .reject }?.detail.contains(reason) == true, "\(report.actions)")
        }
    }

    @Test("Many rejections measure the quarantine once, not once each; a submission listing more files than any needs is refused unfetched")
    func manyRejections() throws {
        let scratch = try SyncScratch()
        for number in 0..<300 { try scratch.comment("ghost\(number)", part: "ghost") }
        let many = (0..<9).map { "many.\($0).comment.md" }
        try scratch.writeManifest(extra: [["id": "many", "files": many]])
        let measured = { scratch.counts[.quarantineMeasured] }
        let before = measured()
        let report = try scratch.sync()
        #expect(report.count(.reject) == 301)
        #expect(measured() - before == 1)
        #expect(report.actions.first { $0.id == "many" }?.detail.contains("it lists 9 files; a submission has at most 8") == true)
        #expect(FileManager.default.fileExists(atPath: scratch.site + "/content/.quarantine/ghost299.reason"))
    }

    @Test("Names keep the joiners their script or emoji needs: ZWNJ in Persian, ZWJ in an emoji sequence")
    func joinersInNames() throws {
        let scratch = try SyncScratch()
        try scratch.comment("persian", author: "\"\u{646}\u{6CC}\u{6A9}\u{200C}\u{646}\u{627}\u{645}\"")
        try scratch.comment("emoji", author: "\"Ada \u{1F469}\u{200D}\u{1F4BB}\"")
        try scratch.writeManifest()
        let report = try scratch.sync()
        #expect(report.count(.accept) == 2, "\(report.actions)")
    }

    @Test("The same photo sent twice with two captions is two photos; a takedown of the first leaves the second")
    func samePhotoTwice() throws {
        let scratch = try SyncScratch()
        for (id, caption) in [("s1", "Lid, open"), ("s2", "Lid, from above")] {
            try scratch.put("\(id).png", tinyPNG)
            try scratch.put("\(id).photo.yaml", "machine: box\npart: lid\nauthor: Ada\ndate: 2025-03-01\ncaption: \"\(caption)\"\nfile: \(id).png\n")
        }
        try scratch.writeManifest()
        #expect(try scratch.sync().count(.accept) == 2)
        func captions() -> [String] {
            let (content, _) = ContentLoader(siteRoot: scratch.site).load()
            return content.machines[0].parts[0].community.photos.compactMap(\.caption).sorted()
        }
        #expect(captions() == ["Lid, from above", "Lid, open"])
        for file in ["s1.png", "s1.photo.yaml"] { try FileManager.default.removeItem(atPath: scratch.inbox + "/" + file) }
        try scratch.put("t1.takedown.yaml", "target: s1\nreason: asked by the author\n")
        try scratch.writeManifest()
        #expect(try scratch.sync().count(.takeDown) == 1)
        #expect(captions() == ["Lid, from above"])
    }

    @Test("A photo is filed with its sidecar; one over the pixel limit is rejected")
    func photos() throws {
        let scratch = try SyncScratch()
        try scratch.put("p1.png", tinyPNG)
        try scratch.put("p1.photo.yaml", "machine: box\npart: lid\nauthor: Ada\ndate: 2025-03-01\ncaption: \"Lid, open\"\nlocation: false\nfile: p1.png\n")
        try scratch.writeManifest()
        let report = try scratch.sync()
        #expect(report.count(.accept) == 1)
        let photos = try FileManager.default.contentsOfDirectory(atPath: scratch.site + "/content/machines/box/parts/lid/photos").sorted()
        #expect(photos.count == 2)
        #expect(photos.allSatisfy { $0.hasPrefix(SubmissionReview.contentName(Data("p1".utf8) + tinyPNG)) })
        let (content, _) = ContentLoader(siteRoot: scratch.site).load()
        #expect(content.machines[0].parts[0].community.photos.first?.caption == "Lid, open")
        #expect(content.machines[0].parts[0].community.photos.first?.id == "p1")

        try scratch.write(limits: "photo_max_pixels: 1")
        try scratch.put("p2.png", tinyPNG + Data([1]))
        try scratch.put("p2.photo.yaml", "machine: box\nauthor: Ada\ndate: 2025-03-01\nfile: p2.png\n")
        try scratch.writeManifest()
        let second = try scratch.sync()
        #expect(second.actions.first { $0.id == "p2" }?.detail.contains("2x1 pixels is over the limit of 1") == true)

        // A photo with a valid header whose pixels are cut short is refused, not filed.
        try scratch.write(limits: "photo_max_pixels: 100")
        try scratch.put("p3.png", tinyPNG.prefix(tinyPNG.count - 20))
        try scratch.put("p3.photo.yaml", "machine: box\nauthor: Ada\ndate: 2025-03-01\nfile: p3.png\n")
        try scratch.writeManifest()
        let third = try scratch.sync()
        #expect(third.actions.first { $0.id == "p3" }?.detail.contains("p3.png: the image cannot be decoded") == true)
    }

    @Test("An HTTP inbox is read through its manifest; a second sync downloads only the manifest")
    func httpInbox() throws {
        let scratch = try SyncScratch()
        try scratch.comment("c1", body: "Over HTTP.")
        try scratch.writeManifest()
        let server = try LocalServer(.http, serving: scratch.inbox)
        defer { server.stop() }
        let report = try scratch.sync(from: "http://\(server.url)/")
        #expect(report.count(.accept) == 1)
        #expect(server.requests.contains("GET /c1.comment.md"))
        let second = try scratch.sync(from: "http://\(server.url)/")
        #expect(second.count(.alreadyPresent) == 1)
        #expect(server.requests.components(separatedBy: "GET /c1.comment.md").count == 2, "fetched once only")
    }

    @Test("A rejected photo is not downloaded again, is let in from its quarantined copy once its part exists, and past the quarantine's limit only its reason is kept")
    func rejectedOnce() throws {
        let scratch = try SyncScratch()
        // Two photos for a part the machine does not have yet, 40 KB each.
        let photo = tinyPNG + Data(repeating: 0, count: 40_000)
        for id in ["p1", "p2"] {
            try scratch.put("\(id).png", photo)
            try scratch.put("\(id).photo.yaml", "machine: box\npart: hinge\nauthor: Ada\ndate: 2025-03-01\nfile: \(id).png\n")
        }
        try scratch.writeManifest()
        try scratch.write(limits: "quarantine_max_bytes: 60000")
        let server = try LocalServer(.http, serving: scratch.inbox)
        defer { server.stop() }
        let downloads = { (id: String) in server.requests.components(separatedBy: "GET /\(id).png").count - 1 }
        let first = try scratch.sync(from: "http://\(server.url)/")
        #expect(first.count(.reject) == 2, "\(first.actions)")
        // One photo's files fit the limit; the other's reason alone is kept.
        let quarantine = scratch.site + "/content/.quarantine"
        let kept = ["p1", "p2"].filter { FileManager.default.fileExists(atPath: quarantine + "/\($0)/\($0).png") }
        #expect(kept.count == 1, "\(kept)")
        #expect(Fixtures.read(quarantine + "/p1.reason").contains("unknown part"))
        #expect(Fixtures.read(quarantine + "/p2.reason").contains("unknown part"))

        let second = try scratch.sync(from: "http://\(server.url)/")
        #expect(second.count(.reject) == 2)
        #expect(downloads("p1") == 1 && downloads("p2") == 1, "nothing downloaded again:\n\(server.requests)")
        let dropped = ["p1", "p2"].first { !kept.contains($0) }!
        #expect(second.actions.first { $0.id == dropped }?.detail.contains("rejected before, not fetched again") == true,
                "\(second.actions)")

        // The part is added: the kept photo comes in from its quarantined copy, still not downloaded again.
        try FileManager.default.createDirectory(atPath: scratch.site + "/content/machines/box/parts/hinge", withIntermediateDirectories: true)
        try "name: \"Hinge\"\nlayer: {image: layer.svg, z: 1}\n".write(toFile: scratch.site + "/content/machines/box/parts/hinge/part.yaml",
                                                                       atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: scratch.site + "/content/machines/box/parts/lid/" + (try FileManager.default
            .contentsOfDirectory(atPath: scratch.site + "/content/machines/box/parts/lid").first { $0.hasSuffix(".svg") }!),
                                         toPath: scratch.site + "/content/machines/box/parts/hinge/layer.svg")
        let third = try scratch.sync(from: "http://\(server.url)/")
        #expect(third.actions.first { $0.id == kept[0] }?.kind == .accept, "\(third.actions)")
        #expect(downloads(kept[0]) == 1, "let in from the quarantine")
        #expect(!FileManager.default.fileExists(atPath: quarantine + "/\(kept[0]).reason"))
    }

    @Test("A remote inbox must give each file's SHA-256: a file cut short in transit is never filed cut short")
    func remoteDigestsRequired() throws {
        let scratch = try SyncScratch()
        try scratch.comment("c1", body: "Over HTTP, and whole.")
        try scratch.writeManifest(extra: [["id": "c2", "files": ["c2.comment.md"]]])
        try scratch.comment("c2", body: "Listed without a digest.")
        let server = try LocalServer(.http, serving: scratch.inbox)
        defer { server.stop() }
        let report = try scratch.sync(from: "http://\(server.url)/")
        #expect(report.count(.accept) == 1)
        let rejected = report.actions.filter { $0.kind == .reject }
        #expect(rejected.map(\.id) == ["c2"])
        #expect(rejected.first?.detail.contains("the manifest gives no SHA-256 for c2.comment.md") == true, "\(rejected)")
        // A folder inbox is on the same disk: its manifest may leave digests out.
        #expect(try scratch.sync().count(.accept) == 1)
    }

    @Test("A server dripping a byte every half second cannot hold a sync past its timeout")
    func syncDeadline() throws {
        let scratch = try SyncScratch()
        let server = try LocalServer(.drip, serving: scratch.inbox)
        defer { server.stop() }
        let started = Date()
        let source = Inbox.source("http://\(server.url)/", scratch: scratch.site + "/.teardown-cache/downloads", timeout: 2)
        #expect(throws: InboxFailure.self) { try Syncer(siteRoot: scratch.site, source: source).run(dryRun: false) }
        #expect(Date().timeIntervalSince(started) < 10, "stopped by the deadline, not by the 30 s stall limit")
    }

    @Test("An FTP inbox on a real FTP server is synced")
    func ftpInbox() throws {
        let scratch = try SyncScratch()
        try scratch.comment("c1", body: "Over FTP.")
        try scratch.put("p1.png", tinyPNG)
        try scratch.put("p1.photo.yaml", "machine: box\nauthor: Ada\ndate: 2025-03-01\nfile: p1.png\n")
        try scratch.writeManifest()
        let server = try LocalServer(.ftp, serving: scratch.inbox)
        defer { server.stop() }
        let report = try scratch.sync(from: "ftp://\(server.url)/")
        #expect(report.count(.accept) == 2, "\(report.actions)")
        #expect(Fixtures.read(try scratch.build() + "/machines/box/parts/lid/index.html").contains("Over FTP."))
    }

    @Test("A remote inbox without a manifest stops the sync with a clear message")
    func missingManifest() throws {
        let scratch = try SyncScratch()
        try scratch.comment("c1")
        let server = try LocalServer(.http, serving: scratch.inbox)
        defer { server.stop() }
        #expect {
            _ = try scratch.sync(from: "http://\(server.url)/")
        } throws: { error in
            "\(error)".contains("manifest.json") && "\(error)".contains("404")
        }
    }
}

extension SyncScratch {
    func write(limits: String) throws {
        try "title: \"Tiny catalog\"\nbase_url: \"https://example.org/catalog/\"\nlimits:\n  \(limits)\n"
            .write(toFile: site + "/content/site.yaml", atomically: true, encoding: .utf8)
    }
}
