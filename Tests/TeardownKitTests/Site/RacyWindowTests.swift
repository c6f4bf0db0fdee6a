import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

/// An input changed so shortly before a build that a later change could keep its timestamps is
/// racy: checked by content, and its machine not carried. How shortly depends on the file
/// system's clock (`InputSnapshot.racyWindow(for:)`).
@Suite("The racy window")
struct RacyWindowTests {
    @Test("Local file systems stamp by the kernel's clock and get the short window; others the long one")
    func windowByFileSystem() {
        if FileSystem.exists("/dev/shm") {
            #expect(FileSystem.stampsByKernelClock("/dev/shm"))
            #expect(InputSnapshot.racyWindow(for: ["/dev/shm"]) == InputSnapshot.tickWindow)
        }
        // procfs stamps by no disk's clock, and a missing root has no say.
        #expect(!FileSystem.stampsByKernelClock("/proc"))
        #expect(InputSnapshot.racyWindow(for: ["/proc", "/dev/shm"]) == InputSnapshot.racyWindow)
        #expect(InputSnapshot.racyWindow(for: ["/no/such/folder"]) == InputSnapshot.racyWindow)
    }

    /// The minimal site with a second machine, built once its files are past the racy window.
    private static func builtSite() throws -> (machines: String, output: String, counts: Counts, builder: SiteBuilder, window: Double) {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let machines = site + "/content/machines/"
        try FileManager.default.copyItem(atPath: machines + "box", toPath: machines + "crate")
        let output = (site as NSString).deletingLastPathComponent + "/public"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        let window = InputSnapshot.racyWindow(for: [site + "/content"])
        Thread.sleep(forTimeInterval: window + 0.01)
        try builder.build()
        return (machines, output, counts, builder, window)
    }

    @Test("A build right after one that filed a comment, past the racy window, plans only its own machine")
    func backToBackBuilds() throws {
        let (machines, output, counts, builder, window) = try Self.builtSite()

        func comment(on machine: String, _ text: String) throws -> Int {
            try "---\nauthor: Grace\ndate: 2024-06-01\n---\n\(text)\n"
                .write(toFile: machines + machine + "/parts/lid/comments/\(machine)-new.md", atomically: true, encoding: .utf8)
            // Out of the window, as a sync that follows another is on a local disk.
            Thread.sleep(forTimeInterval: window + 0.01)
            let before = counts[.machinesPlanned]
            try builder.build()
            return counts[.machinesPlanned] - before
        }
        #expect(try comment(on: "box", "On the box.") == 1)
        #expect(try comment(on: "crate", "On the crate.") == 1, "the box, changed by the build before, is carried")
        #expect(Fixtures.read(output + "/machines/box/parts/lid/index.html").contains("On the box."))
        #expect(Fixtures.read(output + "/machines/crate/parts/lid/index.html").contains("On the crate."))
    }

    /// A sync files its comment a moment before its build looks, so that bundle is racy there.
    /// Once it has settled by the end of the build, as the look found it, its content and its
    /// units' row are kept (`SiteBuilder.settle`): the next sync plans only its own machine.
    /// One stamped ahead, still racy at the end, is not kept.
    @Test("A machine filed into just before the build is kept once it settles; one still racy is planned again")
    func settledAfterFiling() throws {
        let (machines, output, counts, builder, window) = try Self.builtSite()

        // As sync does: a look, the comment filed, the build handed both. The build is made to
        // outlast the window (its first progress report waits), as a catalog's build does.
        func sync(_ machine: String, _ text: String, stampedAhead: Bool = false) throws -> (planned: Int, settled: Int) {
            let walked = builder.walkInputs()
            let path = machines + machine + "/parts/lid/comments/\(machine)-\(counts[.machinesPlanned]).md"
            try "---\nauthor: Grace\ndate: 2024-06-01\n---\n\(text)\n".write(toFile: path, atomically: true, encoding: .utf8)
            if stampedAhead {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 30)], ofItemAtPath: path)
            }
            let waited = Locked(false)
            let (planned, settled) = (counts[.machinesPlanned], counts[.bundlesSettled])
            try builder.build(inputs: walked, changed: [path], progress: { _ in
                if !waited.withLock({ $0 }) {
                    Thread.sleep(forTimeInterval: window + 0.02)
                    waited.withLock { $0 = true }
                }
            })
            return (counts[.machinesPlanned] - planned, counts[.bundlesSettled] - settled)
        }
        #expect(try sync("box", "On the box.") == (1, 1))
        #expect(try sync("crate", "On the crate.") == (1, 1), "the box, kept as it settled, is carried")
        #expect(Fixtures.read(output + "/machines/box/parts/lid/index.html").contains("On the box."))
        #expect(Fixtures.read(output + "/machines/crate/parts/lid/index.html").contains("On the crate."))

        #expect(try sync("box", "Stamped ahead.", stampedAhead: true) == (1, 0), "the box is still racy at the end")
        #expect(try sync("crate", "Again on the crate.") == (2, 1), "the box, still racy, is planned again")
        #expect(Fixtures.read(output + "/machines/box/parts/lid/index.html").contains("Stamped ahead."))
        #expect(Fixtures.read(output + "/machines/crate/parts/lid/index.html").contains("Again on the crate."))
    }

    @Test("A racy bundle settles when its racy entries are past the window with the stamps and content the look found")
    func settledBundles() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let machines = site + "/content/machines/"
        try FileManager.default.copyItem(atPath: machines + "box", toPath: machines + "crate")
        let roots = [site + "/content"]
        let key = ContentDigest(of: "settings")
        // Every entry racy, with its content's digest.
        let taken = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: 3600))
        #expect(taken.bundleSignatures().racy == ["box", "crate"])
        let window = InputSnapshot.racyWindow(for: roots)
        Thread.sleep(forTimeInterval: window + 0.01)
        #expect(taken.settled(["box", "crate"]) == ["box", "crate"])
        // A content that is not what the look found (as a change within one clock tick would leave).
        var forged = false
        let entries = taken.entries.map { entry -> InputSnapshot.Entry in
            guard !forged, entry.path.hasPrefix("machines/crate/"), entry.content != nil else { return entry }
            forged = true
            return InputSnapshot.Entry(root: entry.root, path: entry.path, signature: entry.signature, content: ContentDigest(of: "other"))
        }
        #expect(InputSnapshot(key: key, roots: roots, entries: entries).settled(["box", "crate"]) == ["box"])
        // A change since, and a bundle changed within the window, do not settle.
        try "---\nauthor: Ada\ndate: 2024-05-02\n---\nNew.\n".write(toFile: machines + "box/parts/lid/comments/new.md",
                                                                        atomically: false, encoding: .utf8)
        #expect(taken.settled(["box", "crate"]) == ["crate"])
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 30)],
                                              ofItemAtPath: machines + "crate/parts/lid/description.md")
        let ahead = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: 3600))
        Thread.sleep(forTimeInterval: window + 0.01)
        #expect(ahead.settled(["box", "crate"]) == ["box"], "the crate's stamp is still inside the window")
    }
}
