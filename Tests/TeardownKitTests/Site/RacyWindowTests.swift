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

    @Test("A build right after one that filed a comment, past the racy window, plans only its own machine")
    func backToBackBuilds() throws {
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
}
