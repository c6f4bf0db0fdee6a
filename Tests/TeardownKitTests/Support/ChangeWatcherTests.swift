import Foundation
import Synchronization
import Testing
@testable import TeardownBase
#if canImport(Glibc)
import Glibc
#endif

@Suite("Watching for uploads in progress")
struct ChangeWatcherTests {
    /// The reports with the times they came, their paths in order ("*" for a report of unknown
    /// paths): a report of events noted before a `settle` may still be on its way.
    final class Reports: Sendable {
        let times = Mutex<[(at: Double, paths: [String])]>([])
        func add(_ reported: [String]?) {
            times.withLock { $0.append((ProcessInfo.processInfo.systemUptime, reported ?? ["*"])) }
        }
    }

    @Test("A file is being written from its making to its close, as soon as it exists, and a link or a rename is not")
    func openFromItsMaking() throws {
        let folder = Fixtures.temporaryFolder()
        let watcher = ChangeWatcher(folders: [folder]) { _ in }
        #expect(watcher.mode == .inotify)
        let path = folder + "/upload.comment.md"
        // Asked right after the file is made, before its first write: its making is noted.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        watcher.settle()
        #expect(watcher.isBeingWritten(path), "made and not yet written")
        #expect(write(descriptor, "half", 4) == 4)
        watcher.settle()
        #expect(watcher.isBeingWritten(path), "written in part")
        close(descriptor)
        watcher.settle()
        #expect(!watcher.isBeingWritten(path), "closed")
        // Names made whole at once: a hard link, a symbolic link, a rename.
        #expect(link(path, folder + "/linked.comment.md") == 0)
        #expect(symlink(path, folder + "/symbolic.comment.md") == 0)
        try Data("whole".utf8).write(to: URL(fileURLWithPath: folder + "/renamed.comment.md"), options: .atomic)
        watcher.settle()
        for name in ["linked", "symbolic", "renamed"] {
            #expect(!watcher.isBeingWritten(folder + "/\(name).comment.md"), "\(name)")
        }
    }

    @Test("A file whose writer stalls is taken for whole after the limit, and is reported then")
    func stalledWriter() throws {
        let folder = Fixtures.temporaryFolder()
        let reports = Reports()
        // Long beside a report's way to the listener, so that the reports of the making and the
        // write cannot come past it.
        let limit = 1.0
        let watcher = ChangeWatcher(folders: [folder], stallLimit: limit) { reports.add($0) }
        let path = folder + "/stalled.comment.md"
        // Before the making: the watcher's clock for the stall starts at the write it notes, later.
        let started = ProcessInfo.processInfo.systemUptime
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(descriptor) }
        #expect(write(descriptor, "half", 4) == 4)
        watcher.settle()
        #expect(watcher.isBeingWritten(path))
        // The report after the limit is what wakes a listing of an inbox waiting for the close;
        // the reports of the making and the write may come late, so the one looked for is the
        // first that came past the limit.
        func stallReport() -> [String]? { reports.times.withLock { $0.first { $0.at >= started + limit }?.paths } }
        let deadline = Date(timeIntervalSinceNow: 10)
        while stallReport() == nil, Date() < deadline { usleep(20_000) }
        #expect(stallReport() == [path])
        #expect(!watcher.isBeingWritten(path), "open, but stalled past the limit")
    }
}
