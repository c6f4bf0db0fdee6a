import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownMedia
@testable import TeardownInbox

/// A scratch copy of the minimal site (machine "box", part "lid") and an intake inbox beside it.
private struct IntakeScratch {
    let site: String
    let inbox: IntakeInbox
    let desk: IntakeDesk

    init(settings: String = "") throws {
        site = Fixtures.copy(Fixtures.site("minimal"))
        if !settings.isEmpty {
            let path = site + "/content/site.yaml"
            try (Fixtures.read(path) + settings).write(toFile: path, atomically: true, encoding: .utf8)
        }
        inbox = try IntakeInbox(folder: (site as NSString).deletingLastPathComponent + "/inbox")
        desk = try IntakeDesk(siteRoot: site, inbox: inbox)
    }

    func photo(_ form: PhotoForm, bytes: Data) async throws -> IntakeOutcome {
        let upload = try desk.beginPhoto()
        try upload.write(IntakeDesk.imageUploadName(upload), bytes)
        return await desk.submit(form, upload: upload)
    }

    func sync() throws -> SyncReport {
        try Syncer(siteRoot: site, source: Inbox.source(inbox.folder, scratch: site + "/.teardown-cache/downloads")).run(dryRun: false)
    }

    func file(_ id: String, _ suffix: String) -> String { Fixtures.read(inbox.folder + "/" + id + suffix) }
}

@Suite struct IntakeDeskTests {
    static let gpsPhoto = Fixtures.site("photos") + "/content/machines/camera/parts/body/photos/workbench.jpg"

    @Test func aCommentIsListedWithItsChecksumAndSyncAcceptsIt() async throws {
        let scratch = try IntakeScratch()
        let outcome = await scratch.desk.submit(CommentForm(machine: "box", part: "lid", author: "Ada \"the\" Lovelace".prefix(10).description,
                                                            body: "Hinges\r\nsqueak.\n---\nnot: front matter"))
        guard case .received(let id, let held) = outcome else { Issue.record("refused: \(outcome)"); return }
        #expect(!held)
        #expect(IntakeID.isIntakeFile(id + ".comment.md"))
        let listed = try scratch.inbox.submissions()
        #expect(listed.map(\.id) == [id])
        let data = try #require(FileManager.default.contents(atPath: scratch.inbox.folder + "/\(id).comment.md"))
        #expect(listed[0].sha256["\(id).comment.md"] == SHA256Hex.of(data))
        #expect(!scratch.file(id, ".comment.md").contains("\r"), "line ends as the site writes them")

        let report = try scratch.sync()
        #expect(report.count(.accept) == 1, "what intake takes, sync takes: \(report.actions)")
        let comments = try FileManager.default.contentsOfDirectory(atPath: scratch.site + "/content/machines/box/parts/lid/comments")
        let stored = comments.map { Fixtures.read(scratch.site + "/content/machines/box/parts/lid/comments/" + $0) }.joined()
        #expect(stored.contains("author: Ada \"the\"\n"), "trimmed, and written by Yams, which reads it back the same")
        #expect(stored.contains("---\nnot: front matter"), "a body line of dashes stays in the body")
        #expect(try scratch.sync().count(.alreadyPresent) == 1, "a second sync changes nothing")
    }

    @Test func refusalsNameTheProblemWithoutTheInboxFile() async throws {
        let scratch = try IntakeScratch()
        let cases: [(CommentForm, String)] = [
            (CommentForm(machine: "nope", part: nil, author: "Ada", body: "Hi"), "unknown machine 'nope'"),
            (CommentForm(machine: "box", part: "door", author: "Ada", body: "Hi"), "unknown part 'door' of machine 'box'"),
            (CommentForm(machine: "box\npart: lid", part: nil, author: "Ada", body: "Hi"), "unknown machine"),
            (CommentForm(machine: "box", part: nil, author: "Ada", body: String(repeating: "é", count: 201)),
             "comment is 201 characters long; the limit is 1-200"),
            (CommentForm(machine: "box", part: nil, author: " ", body: "Hi"), "invalid 'author': must not be empty"),
            (CommentForm(machine: "box", part: nil, author: "Ada Lovelace, Countess of Lovelace, of London", body: "Hi"), "author 'Ada Lovelace, Countess of Lovelace, of London' must be 1-40 characters long"),
            (CommentForm(machine: "box", part: nil, author: "Ada", body: "  \n "), "comment is 0 characters long; the limit is 1-200"),
            // YAML would fold either separator to a space.
            (CommentForm(machine: "box", part: nil, author: "Ada\u{2028}Lovelace", body: "Hi"), "the author's name contains the line break U+2028"),
            (CommentForm(machine: "box", part: nil, author: "Ada\u{2029}Lovelace", body: "Hi"), "the author's name contains the line break U+2029"),
        ]
        for (form, reason) in cases {
            let outcome = await scratch.desk.submit(form)
            #expect(outcome == .refused(reason))
        }
        #expect(try scratch.inbox.submissions().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.inbox.incoming).isEmpty, "refused uploads leave nothing")
    }

    @Test func aPhotoLosesItsPositionUnlessSharedAndBadImagesAreRefused() async throws {
        let scratch = try IntakeScratch()
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.gpsPhoto))
        let kept = try await scratch.photo(PhotoForm(machine: "box", part: "lid", author: "Ada", caption: "Top", shareLocation: true), bytes: jpeg)
        let dropped = try await scratch.photo(PhotoForm(machine: "box", part: nil, author: "Ada", caption: nil, shareLocation: false), bytes: jpeg)
        guard case .received(let keptID, _) = kept, case .received(let droppedID, _) = dropped else {
            Issue.record("refused: \(kept) \(dropped)")
            return
        }
        #expect(FileManager.default.contents(atPath: scratch.inbox.folder + "/\(keptID).jpg") == jpeg, "shared: stored as sent")
        let stripped = try #require(FileManager.default.contents(atPath: scratch.inbox.folder + "/\(droppedID).jpg"))
        #expect(stripped != jpeg && stripped.range(of: Data("TeardownCam".utf8)) != nil)
        let header = { (id: String) throws -> Vips.Header in
            try Vips.openPhoto(scratch.inbox.folder + "/\(id).jpg", format: .jpeg, maxPixels: 40_000_000).1
        }
        #expect(try header(keptID).latitude.isEmpty == false)
        #expect(try header(droppedID).latitude.isEmpty, "no position is stored unless shared")
        #expect(scratch.file(keptID, ".photo.yaml").contains("location: true\n"))
        #expect(scratch.file(droppedID, ".photo.yaml").contains("location: false\n"))
        #expect(scratch.file(keptID, ".photo.yaml").contains("caption: Top\n"))

        let refusals: [(Data, String)] = [
            (Data("GIF89a".utf8) + Data(count: 20), "the photo must be a JPEG, PNG or WebP image"),
            (jpeg.prefix(200), "not a JPEG image"),
            (Data(), "no photo was sent"),
        ]
        for (bytes, reason) in refusals {
            let outcome = try await scratch.photo(PhotoForm(machine: "box", part: nil, author: "Ada", caption: nil, shareLocation: true),
                                                  bytes: bytes)
            guard case .refused(let said) = outcome else { Issue.record("accepted \(reason)"); continue }
            #expect(said.contains(reason), "\(said)")
        }
        #expect(try scratch.inbox.submissions().count == 2)
        #expect(try scratch.sync().count(.accept) == 2)
    }

    @Test func photoSizeLimitComesFromSiteYaml() async throws {
        let scratch = try IntakeScratch(settings: "limits:\n  photo_max_bytes: 5000\n")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.gpsPhoto))
        let outcome = try await scratch.photo(PhotoForm(machine: "box", part: nil, author: "Ada", caption: nil, shareLocation: true), bytes: jpeg)
        #expect(outcome == .refused("the photo is \(jpeg.count) bytes; the limit is 5000"))
    }

    @Test func moderationHoldsSubmissionsUntilApprovedAndRejectionDeletesThem() async throws {
        let scratch = try IntakeScratch(settings: "moderation: true\n")
        var ids: [String] = []
        for body in ["First", "Second", "Third"] {
            guard case .received(let id, let held) = await scratch.desk.submit(CommentForm(machine: "box", part: nil, author: "Ada", body: body))
            else { Issue.record("refused"); return }
            #expect(held)
            ids.append(id)
        }
        #expect(try scratch.inbox.submissions().isEmpty, "nothing is listed for sync while held")
        #expect(try scratch.inbox.held().map(\.id).sorted() == ids.sorted())
        #expect(try scratch.inbox.held().first { $0.id == ids[0] }?.text.contains("First") == true)

        #expect(try scratch.inbox.approve([ids[0], "unknown-id"]) == ["unknown-id"])
        #expect(try scratch.inbox.reject([ids[1]]) == [])
        #expect(try scratch.inbox.submissions().map(\.id) == [ids[0]])
        #expect(try scratch.inbox.held().map(\.id) == [ids[2]])
        #expect(!FileManager.default.fileExists(atPath: scratch.inbox.pendingFolder + "/" + ids[1]), "a rejected submission is gone")
        let report = try scratch.sync()
        #expect(report.count(.accept) == 1)
    }

    @Test func manyConcurrentSubmissionsAreAllListed() async throws {
        let scratch = try IntakeScratch()
        let desk = scratch.desk
        let outcomes = await withTaskGroup(of: IntakeOutcome.self) { group in
            for index in 0..<60 {
                group.addTask { await desk.submit(CommentForm(machine: "box", part: nil, author: "Ada", body: "Comment \(index)")) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let received = outcomes.compactMap { outcome -> String? in
            if case .received(let id, _) = outcome { return id } else { return nil }
        }
        #expect(received.count == 60)
        #expect(Set(try scratch.inbox.submissions().map(\.id)) == Set(received))
    }

    /// A sender whose connection dropped before the answer posts again: one comment is kept.
    @Test func aRetriedCommentGetsItsFirstIdAndNoSecondCopy() async throws {
        let scratch = try IntakeScratch()
        let form = CommentForm(machine: "box", part: "lid", author: "Ada", body: "Sent twice.")
        let start = Date()
        let first = await scratch.desk.submit(form, now: start)
        let retry = await scratch.desk.submit(form, now: start.addingTimeInterval(30))
        guard case .received(let id, _) = first, case .received(let again, _) = retry else {
            Issue.record("refused: \(first) \(retry)")
            return
        }
        #expect(again == id)
        #expect(try scratch.inbox.submissions().map(\.id) == [id])
        // Another comment, or the same words much later, is new.
        _ = await scratch.desk.submit(CommentForm(machine: "box", part: "lid", author: "Ada", body: "Said once."), now: start)
        _ = await scratch.desk.submit(form, now: start.addingTimeInterval(IntakeDesk.retryWindow + 1))
        #expect(try scratch.inbox.submissions().count == 3)
    }

    @Test func pruningDropsOldSubmissionsFromTheManifestAndTheDisk() async throws {
        let scratch = try IntakeScratch()
        let old = ISODate("2026-01-15T10:00:00Z")!.date, recent = ISODate("2026-03-02T10:00:00Z")!.date
        guard case .received(let first, _) = await scratch.desk.submit(CommentForm(machine: "box", part: nil, author: "Ada", body: "Old"), now: old),
              case .received(let second, _) = await scratch.desk.submit(CommentForm(machine: "box", part: nil, author: "Ada", body: "New"), now: recent)
        else { Issue.record("refused"); return }
        #expect(try scratch.inbox.prune(before: "2026-03-01") == [first])
        #expect(try scratch.inbox.submissions().map(\.id) == [second])
        #expect(!FileManager.default.fileExists(atPath: scratch.inbox.folder + "/\(first).comment.md"))
        #expect(throws: InboxFailure.self) { try scratch.inbox.prune(before: "March") }
        // Not a day of the calendar: before the fix, month 13 compared as text and pruned everything.
        for day in ["2026-13-01", "2026-02-30", "2026-0301", "20260301"] {
            #expect(throws: InboxFailure.self, "\(day)") { try scratch.inbox.prune(before: day) }
        }
    }

    @Test func aSiteThatStopsLoadingIsReportedOnceAndTheLastGoodContentServes() async throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let inbox = try IntakeInbox(folder: (site as NSString).deletingLastPathComponent + "/inbox")
        let reported = Locked<[BuildFailure]>([])
        let desk = try IntakeDesk(siteRoot: site, inbox: inbox) { failure in reported.withLock { $0.append(failure) } }
        try "title: [broken\n".write(toFile: site + "/content/site.yaml", atomically: true, encoding: .utf8)
        // The content is looked at again at most once a second.
        try await Task.sleep(for: .milliseconds(1100))
        let first = await desk.submit(CommentForm(machine: "box", part: nil, author: "Ada", body: "Still taken."))
        guard case .received = first else { Issue.record("\(first)"); return }
        try await Task.sleep(for: .milliseconds(1100))
        _ = await desk.submit(CommentForm(machine: "box", part: nil, author: "Ada", body: "Taken again."))
        let failures = reported.withLock { $0 }
        #expect(failures.count == 1, "said once for the change that broke it, not on every look")
        #expect(failures.first?.diagnostics.first?.description.contains("content/site.yaml") == true, "\(failures)")
    }

    @Test func recoveryClearsWhatAKilledRunLeftBehind() async throws {
        let scratch = try IntakeScratch()
        guard case .received(let kept, _) = await scratch.desk.submit(CommentForm(machine: "box", part: nil, author: "Ada", body: "Kept"))
        else { Issue.record("refused"); return }
        // An upload cut off mid-way, and files renamed in but never listed.
        let upload = try scratch.inbox.beginUpload(id: IntakeID.make())
        try upload.write(upload.id + ".upload", Data(count: 1000))
        let orphan = IntakeID.make()
        try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.inbox.folder + "/\(orphan).comment.md"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: scratch.inbox.folder + "/notes.txt"))

        try scratch.inbox.recover()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.inbox.incoming).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scratch.inbox.folder + "/\(orphan).comment.md"))
        #expect(FileManager.default.fileExists(atPath: scratch.inbox.folder + "/notes.txt"), "files intake did not write stay")
        #expect(FileManager.default.fileExists(atPath: scratch.inbox.folder + "/\(kept).comment.md"))
    }
}
