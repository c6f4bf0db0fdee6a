import Foundation
import Testing

/// libvips, libcurl and libnettle are opened when first used, not linked: a command that
/// processes no image, downloads nothing or digests nothing does not map them and the libraries
/// they bring. OpenSSL's libcrypto comes only with libcurl. The dynamic loader says what a run opened (`LD_DEBUG=files`).
@Suite("Libraries loaded when needed")
struct LibraryLoadTests {
    /// The run's result and the names of the shared libraries it opened.
    static func run(_ arguments: [String]) throws -> (TeardownBinary.Result, Set<String>) {
        // To files (one per process, `<prefix>.<pid>`): on standard error, the report would fill
        // the pipe while the test still reads standard output.
        let reports = TeardownBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: reports) }
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let result = try TeardownBinary.run(arguments, environment: ["LD_DEBUG": "files", "TEARDOWN_PAGEFIND": "",
                                                                     "LD_DEBUG_OUTPUT": reports.path + "/loader"])
        let text = try FileManager.default.contentsOfDirectory(atPath: reports.path)
            .map { try String(contentsOfFile: reports.path + "/" + $0, encoding: .utf8) }.joined()
        var opened = Set<String>()
        for line in text.split(separator: "\n") {
            guard let start = line.range(of: "file=")?.upperBound, let end = line[start...].firstIndex(of: " ") else { continue }
            opened.insert(String(line[start..<end]).split(separator: "/").last.map(String.init) ?? "")
        }
        #expect(!opened.isEmpty, "the loader reported nothing: LD_DEBUG is not honoured here")
        return (result, opened)
    }

    static func libvips(_ opened: Set<String>) -> Bool { opened.contains { $0.hasPrefix("libvips.so") } }

    @Test("--version and help open neither libvips, libcurl nor libnettle")
    func startUp() throws {
        for arguments in [["--version"], ["help"]] {
            let (result, opened) = try Self.run(arguments)
            #expect(result.status == 0)
            let lazy = opened.filter { $0.hasPrefix("libvips.so") || $0.hasPrefix("libcurl.so") || $0.hasPrefix("libnettle.so") || $0.hasPrefix("libcrypto.so") }
            #expect(lazy.isEmpty, "\(arguments) opened \(lazy.sorted())")
        }
    }

    @Test("Only a build that makes images opens libvips: not check, an edited description or a synced comment; a changed libvips is noticed")
    func imagesOnly() throws {
        let scratch = TeardownBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let site = scratch.appendingPathComponent("site")
        try FileManager.default.copyItem(at: CLITests.fixtures.appendingPathComponent("sites/minimal"), to: site)
        let (cold, coldOpened) = try Self.run(["build", "--site", site.path])
        #expect(cold.status == 0, "\(cold.stdout)")
        #expect(Self.libvips(coldOpened), "the cold build makes the layers' images with libvips")

        let (check, checkOpened) = try Self.run(["check", "--site", site.path])
        #expect(check.status == 0 && !Self.libvips(checkOpened))

        let description = site.appendingPathComponent("content/machines/box/parts/lid/description.md")
        try (String(contentsOf: description, encoding: .utf8) + "\nA second paragraph.\n").write(to: description, atomically: true, encoding: .utf8)
        let (edit, editOpened) = try Self.run(["build", "--site", site.path])
        #expect(edit.status == 0 && edit.stdout.contains("written"), "\(edit.stdout)")
        #expect(!Self.libvips(editOpened), "an edited description made no image, yet libvips was opened")

        let inbox = scratch.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try Data("---\nmachine: box\npart: lid\nauthor: Ada\ndate: 2025-03-01\n---\nA synced comment.\n".utf8)
            .write(to: inbox.appendingPathComponent("one.comment.md"))
        let (sync, syncOpened) = try Self.run(["sync", "--site", site.path, "--from", inbox.path])
        #expect(sync.status == 0 && sync.stdout.contains("1 accepted"), "\(sync.stdout)")
        #expect(!Self.libvips(syncOpened) && !syncOpened.contains { $0.hasPrefix("libcurl.so") || $0.hasPrefix("libcrypto.so") },
                "\(syncOpened.sorted())")
        #expect(syncOpened.contains { $0.hasPrefix("libnettle.so") }, "the sync's digests come from Nettle: \(syncOpened.sorted())")

        // The version cache keys hold is remembered with the library file it was read from; a
        // memo that no longer matches that file (an upgraded libvips) is read from libvips again.
        let memo = site.appendingPathComponent(".teardown-cache/images/libvips")
        let remembered = try String(contentsOf: memo, encoding: .utf8)
        try ("1" + remembered).write(to: memo, atomically: true, encoding: .utf8)
        try (String(contentsOf: description, encoding: .utf8) + "\nA third paragraph.\n").write(to: description, atomically: true, encoding: .utf8)
        let (changed, changedOpened) = try Self.run(["build", "--site", site.path])
        #expect(changed.status == 0 && Self.libvips(changedOpened), "\(changed.stdout)")
        #expect(try String(contentsOf: memo, encoding: .utf8) == remembered)
    }
}
