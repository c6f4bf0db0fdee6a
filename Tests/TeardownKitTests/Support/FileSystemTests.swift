import Foundation
import Testing
@testable import TeardownBase

@Suite("Durable writes")
struct FileSystemTests {
    @Test("A write killed before its rename leaves only a hidden file, which the next write into its folder removes")
    func staleTemporaries() throws {
        let folder = Fixtures.temporaryFolder()
        // What a killed writer leaves: pid 2^22 + 1 is above Linux's pid limit, so no process has it.
        let stale = folder + "/.note.md.teardown-tmp-4194305"
        try Data("half".utf8).write(to: URL(fileURLWithPath: stale))
        // Another comment's, killed the same way: the next write of any name sweeps it too.
        let other = folder + "/.3f1c9a.md.teardown-tmp-4194306"
        try Data("half".utf8).write(to: URL(fileURLWithPath: other))
        let live = folder + "/.note.md.teardown-tmp-\(getpid() == 1 ? 2 : 1)"
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: live))
        // Hidden files of other kinds are not ours to remove, nor the owner's that only look
        // like ours: a pid spelt otherwise than Teardown writes it, or another marker.
        let owners = [".note.md.swp", ".tmp-4194305", ".cache.tmp-4194305-77", ".notes.tmp-4194307",
                      ".draft.md.teardown-tmp-+4194308", ".x.teardown-tmp-0004194309"]
        for name in owners {
            try Data("kept".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try FileSystem.writeAtomically(Data("whole\n".utf8), to: folder + "/note.md")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == (owners + [(live as NSString).lastPathComponent, "note.md"]).sorted())
        #expect(Fixtures.read(folder + "/note.md") == "whole\n")
    }

    @Test("Empty folders are removed up to the root and never past it, however the path is spelt")
    func emptyFoldersBelowRoot() throws {
        let scratch = Fixtures.temporaryFolder()
        let root = scratch + "/site"
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch + "/outside/x", withIntermediateDirectories: true)
        FileSystem.removeEmptyFolders(from: root + "/../outside/x", below: root)
        #expect(FileSystem.isDirectory(scratch + "/outside/x"), "a path that leaves the root by .. is not below it")
        FileSystem.removeEmptyFolders(from: root + "/a/b", below: root)
        #expect(!FileSystem.exists(root + "/a") && FileSystem.isDirectory(root))
    }
}
