import Foundation
import Testing

@Suite("A build after the executable is hard-linked")
struct ExecutableLinkTests {
    /// `N written` from a build's summary line.
    static func written(_ output: String) -> Int? {
        guard let range = output.range(of: #"(\d+) written"#, options: .regularExpression) else { return nil }
        return Int(output[range].split(separator: " ")[0])
    }

    @Test("A hard link to the executable (its change time moves, not a byte) does not re-render the site on the next sync")
    func hardLinkedExecutable() throws {
        let scratch = TeardownBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A copy of its own: linking the shared executable would move every other test's version.
        let bin = scratch.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let executable = bin.appendingPathComponent("teardown")
        try FileManager.default.copyItem(at: TeardownBinary.url, to: executable)
        let built = TeardownBinary.url.deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: built.path) where name.hasSuffix(".resources") {
            try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent(name),
                                                       withDestinationURL: built.appendingPathComponent(name))
        }
        let site = scratch.appendingPathComponent("site")
        try FileManager.default.copyItem(at: CLITests.fixtures.appendingPathComponent("sites/minimal"), to: site)
        func run(_ arguments: [String]) throws -> TeardownBinary.Result {
            try TeardownBinary.run(arguments, executable: executable, environment: ["TEARDOWN_PAGEFIND": ""])
        }
        let first = try run(["build", "--site", site.path])
        #expect(first.status == 0, "\(first.stdout)")
        let all = try #require(Self.written(first.stdout))
        #expect(try run(["build", "--site", site.path]).stdout.contains("Up to date"))

        // What a package manager or a backup does: another name for the same bytes.
        try FileManager.default.linkItem(at: executable, to: bin.appendingPathComponent("teardown-linked"))
        let inbox = scratch.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try Data("---\nmachine: box\npart: lid\nauthor: Ada\ndate: 2025-03-01\n---\nA synced comment.\n".utf8)
            .write(to: inbox.appendingPathComponent("one.comment.md"))
        let sync = try run(["sync", "--site", site.path, "--from", inbox.path])
        #expect(sync.status == 0, "\(sync.stdout)")
        #expect(sync.stdout.contains("1 accepted"), "\(sync.stdout)")
        let written = try #require(Self.written(sync.stdout))
        #expect(written > 0 && written < all / 2, "one comment wrote \(written) of \(all) outputs:\n\(sync.stdout)")
    }
}
