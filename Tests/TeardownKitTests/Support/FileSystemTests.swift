import Foundation
import Testing
@testable import TeardownKit

@Suite("Durable writes")
struct FileSystemTests {
    @Test("A write killed before its rename leaves only a hidden file, which the next write of the target removes")
    func staleTemporaries() throws {
        let folder = Fixtures.temporaryFolder()
        // What a killed writer leaves: pid 2^22 + 1 is above Linux's pid limit, so no process has it.
        let stale = folder + "/.note.md.tmp-4194305"
        try Data("half".utf8).write(to: URL(fileURLWithPath: stale))
        let live = folder + "/.note.md.tmp-\(getpid() == 1 ? 2 : 1)"
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: live))
        try FileSystem.writeAtomically(Data("whole\n".utf8), to: folder + "/note.md")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == [(live as NSString).lastPathComponent, "note.md"])
        #expect(Fixtures.read(folder + "/note.md") == "whole\n")
    }
}
