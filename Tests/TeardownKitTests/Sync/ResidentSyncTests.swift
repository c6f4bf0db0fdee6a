import Foundation
import Synchronization
import Testing
@testable import TeardownBase
@testable import TeardownBuild
@testable import TeardownInbox

/// `sync --follow` in-process: a scratch site (the minimal fixture), an inbox folder beside it,
/// and a resident sync on its own thread, whose rounds are counted.
private final class Following: Sendable {
    let site: String
    let inbox: String
    let output: String
    let counts = Counts()
    let resident: ResidentSync
    private let events = Mutex<[String]>([])
    private let done = Mutex(false)

    init(forcePolling: Bool = false, retryDelay: Double = 0.5, publish: (@Sendable () throws -> Void)? = nil) throws {
        site = Fixtures.copy(Fixtures.site("minimal"))
        let scratch = (site as NSString).deletingLastPathComponent
        inbox = scratch + "/inbox"
        output = scratch + "/public"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: scratch + "/cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        var options = ResidentSync.Options()
        options.folder = inbox
        options.forcePolling = forcePolling
        options.pollInterval = 0.1
        options.retryDelay = retryDelay
        options.publish = publish
        let inbox = inbox
        resident = ResidentSync(builder: builder, source: { Inbox.source(inbox, scratch: scratch + "/downloads") }, options: options,
                                counters: counts.counters)
        let thread = Thread { [self] in
            resident.run { event in
                let line = switch event {
                case .watching(let mode): "watching \(mode == .inotify ? "inotify" : "polling")"
                case .synced(let outcome, let walked): "synced walked=\(walked) accepted=\(outcome.report.count(.accept))"
                case .failed: "failed"
                case .unreachable: "unreachable"
                case .publishFailed: "publish failed"
                case .idle: "idle"
                }
                events.withLock { $0.append(line) }
            }
            done.withLock { $0 = true }
        }
        thread.start()
    }

    var log: [String] { events.withLock { $0 } }
    var rounds: [String] { log.filter { $0.hasPrefix("synced") || $0 == "failed" } }

    /// Waits for `condition`, for at most a minute: the round it waits for takes milliseconds,
    /// and the minute only bounds a test that fails.
    func wait(_ what: String, until condition: () -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: 60)
        while !condition() {
            guard Date() < deadline else { throw Waited(what: what, log: log) }
            usleep(10_000)
        }
    }

    struct Waited: Error, CustomStringConvertible {
        let what: String
        let log: [String]
        var description: String { "never happened: \(what); events: \(log)" }
    }

    var lidPage: String { (try? String(contentsOfFile: output + "/machines/box/parts/lid/index.html", encoding: .utf8)) ?? "" }

    func stop() throws {
        resident.stop()
        try wait("the resident sync stops") { done.withLock { $0 } }
    }
}

@Suite("sync --follow")
struct ResidentSyncTests {
    @Test("A comment dropped in the inbox and a hand edit are each published by a round that walks nothing")
    func publishesWithoutWalking() throws {
        let following = try Following()
        try following.wait("the first round") { following.rounds.count == 1 }
        #expect(following.log.first == "watching inotify")
        #expect(following.rounds == ["synced walked=true accepted=0"])
        #expect(following.counts[.inputWalks] == 1, "the first round walks the site")

        try "---\nmachine: box\npart: lid\nauthor: Ada\ndate: 2025-03-01\n---\nDropped while following.\n"
            .write(toFile: following.inbox + "/f1.comment.md", atomically: true, encoding: .utf8)
        try following.wait("the comment on the lid's page") { following.lidPage.contains("Dropped while following.") }
        // The events of the round's own writes reach the watcher during the round: idle after
        // it, with no round between, it took them for what they are.
        try following.wait("idle after the comment's round") { following.rounds.count >= 2 && following.log.last == "idle" }
        #expect(following.rounds == ["synced walked=true accepted=0", "synced walked=false accepted=1"])
        let lid = following.site + "/content/machines/box/parts/lid"
        try "Edited by hand while following.\n".write(toFile: lid + "/description.md", atomically: false, encoding: .utf8)
        try following.wait("the edit on the lid's page") { following.lidPage.contains("Edited by hand while following.") }
        try following.stop()

        // The round that filed the comment is not followed by one for its own writes.
        #expect(following.rounds == ["synced walked=true accepted=0", "synced walked=false accepted=1",
                                     "synced walked=false accepted=0"])
        #expect(following.counts[.inputWalks] == 1, "no round after the first walks the site")
        let full = following.output + "-full"
        try SiteBuilder(siteRoot: following.site, output: full, full: true, cacheFolder: full + ".cache", pagefind: .notInstalled).build()
        #expect(try IncrementalBuildTests.snapshot(following.output) == IncrementalBuildTests.snapshot(full))
    }

    @Test("A broken machine.yaml pauses publishing with its error; fixed, the next round publishes")
    func recoversFromBadInput() throws {
        let following = try Following()
        try following.wait("the first round") { following.rounds.count == 1 }
        let machine = following.site + "/content/machines/box/machine.yaml"
        let good = try String(contentsOfFile: machine, encoding: .utf8)
        try "title: [unclosed\n".write(toFile: machine, atomically: false, encoding: .utf8)
        try following.wait("a failed round") { following.rounds.last == "failed" }
        try "Written while the site was broken.\n".write(toFile: following.site + "/content/machines/box/parts/lid/description.md",
                                                      atomically: false, encoding: .utf8)
        try good.write(toFile: machine, atomically: false, encoding: .utf8)
        try following.wait("the edit made while broken") { following.lidPage.contains("Written while the site was broken.") }
        try following.stop()
    }

    @Test("A lasting failure is tried again after a back-off, not round after round")
    func backsOffWhileBroken() throws {
        let following = try Following(retryDelay: 0.2)
        try following.wait("the first round") { following.rounds.count == 1 }
        try "title: [unclosed\n".write(toFile: following.site + "/content/machines/box/machine.yaml", atomically: false,
                                         encoding: .utf8)
        try following.wait("a failed round") { following.rounds.last == "failed" }
        // Retried at 0.2, 0.6 and 1.4 seconds with nothing changed; round after round, it was
        // hundreds in that time.
        usleep(1_500_000)
        let failed = following.rounds.filter { $0 == "failed" }.count
        try following.stop()
        #expect(failed >= 2, "a failed round is tried again without a change")
        #expect(failed <= 6, "a failed round is not tried again at once: \(failed) rounds")
    }

    @Test("A failed publish is tried again with no change to wake it")
    func retriesPublish() throws {
        let attempts = Mutex(0)
        let following = try Following(retryDelay: 0.1) {
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if attempt <= 2 { throw CocoaError(.fileWriteNoPermission) }
        }
        try following.wait("the third publish, with nothing changed") { attempts.withLock { $0 } == 3 }
        usleep(500_000)
        try following.stop()
        #expect(attempts.withLock { $0 } == 3, "a publish that succeeded is not run again")
        #expect(following.log.filter { $0 == "publish failed" }.count == 2)
        #expect(following.rounds.count == 1, "the retries publish without building")
    }

    @Test("A comment written into the inbox in two steps, as an FTP or scp upload writes it, is filed whole")
    func waitsForAnUploadToFinish() throws {
        let following = try Following()
        try following.wait("the first round") { following.rounds.count == 1 }
        let text = "---\nmachine: box\npart: lid\nauthor: Ada\ndate: 2025-03-01\n---\nThe first half, "
            + "and the second half after a pause.\n"
        let cut = text.index(text.startIndex, offsetBy: text.count - 30)
        let path = following.inbox + "/upload.comment.md"
        let idle = { following.log.filter { $0 == "idle" }.count }
        // Idle after the first round and whatever rounds its own writes woke.
        try following.wait("idle after the first round") { following.log.last == "idle" }
        usleep(200_000)
        let before = idle()
        // Made and written through one descriptor, as an FTP or scp server writes an upload.
        let upload = FileHandle(fileDescriptor: open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644), closeOnDealloc: true)
        try upload.write(contentsOf: Data(text[..<cut].utf8))
        // The inbox was looked at while the file was half there, and the follower is idle again.
        try following.wait("a look at the inbox while the upload is open") { idle() > before }
        usleep(300_000)
        try upload.write(contentsOf: Data(text[cut...].utf8))
        try upload.close()
        try following.wait("the comment on the lid's page") { following.lidPage.contains("after a pause.") }
        try following.stop()
        let comments = following.site + "/content/machines/box/parts/lid/comments"
        let filed = try FileManager.default.contentsOfDirectory(atPath: comments).filter { $0 != "hello.md" }
            .map { try String(contentsOfFile: comments + "/" + $0, encoding: .utf8) }
        #expect(filed.count == 1 && filed.allSatisfy { $0.contains("after a pause.") }, "filed: \(filed)")
        #expect(!FileSystem.exists(following.site + "/content/.quarantine"), "nothing is quarantined")
    }

    @Test("An inbox rotated, moved away and made anew, is watched anew")
    func watchesARotatedInbox() throws {
        let following = try Following()
        try following.wait("the first round") { following.rounds.count == 1 }
        let files = FileManager.default
        try files.moveItem(atPath: following.inbox, toPath: following.inbox + ".1")
        try files.createDirectory(atPath: following.inbox, withIntermediateDirectories: false)
        try "---\nmachine: box\npart: lid\nauthor: Ada\ndate: 2025-03-01\n---\nPosted after the rotation.\n"
            .write(toFile: following.inbox + "/r1.comment.md", atomically: true, encoding: .utf8)
        try following.wait("the comment on the lid's page") { following.lidPage.contains("Posted after the rotation.") }
        try following.stop()
    }

    @Test("content/ put back from a copy, the old one moved away, is watched anew")
    func watchesAReplacedContentFolder() throws {
        let following = try Following()
        try following.wait("the first round") { following.rounds.count == 1 }
        let files = FileManager.default
        let content = following.site + "/content"
        try files.copyItem(atPath: content, toPath: content + ".restored")
        try "Restored from a backup.\n".write(toFile: content + ".restored/machines/box/parts/lid/description.md",
                                            atomically: false, encoding: .utf8)
        try files.moveItem(atPath: content, toPath: content + ".old")
        try files.moveItem(atPath: content + ".restored", toPath: content)
        try following.wait("the restored description on the lid's page") { following.lidPage.contains("Restored from a backup.") }
        // Edits in the folder now in place are seen too, and those in the one moved away are not inputs.
        try "Edited after the restore.\n".write(toFile: content + "/machines/box/parts/lid/description.md",
                                              atomically: false, encoding: .utf8)
        try following.wait("the later edit on the lid's page") { following.lidPage.contains("Edited after the restore.") }
        try following.stop()
    }

    @Test("Where inotify cannot watch, edits are found by a walk on an interval")
    func polls() throws {
        let following = try Following(forcePolling: true)
        try following.wait("the first round") { following.rounds.count == 1 }
        #expect(following.log.first == "watching polling")
        try "Found by a walk.\n".write(toFile: following.site + "/content/machines/box/parts/lid/description.md",
                                       atomically: false, encoding: .utf8)
        try following.wait("the edit on the lid's page") { following.lidPage.contains("Found by a walk.") }
        try following.stop()
    }
}
