import Foundation
import Testing

/// The page first, the index after: a changed page is published before Pagefind indexes it,
/// and Ctrl-C in between leaves a whole site whose search the next build brings up to date.
@Suite("The page first, the index after", .serialized)
struct PageFirstTests {
    /// The real Pagefind, as the first build found it: on the PATH or remembered in the cache.
    static func pagefind(site: URL) -> String? {
        let remembered = site.appendingPathComponent(".teardown-cache/pagefind-location")
        if let data = try? Data(contentsOf: remembered) { return String(decoding: data, as: UTF8.self) }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            for name in ["pagefind", "pagefind_extended"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    static func pageCount(_ bundle: URL) throws -> Int {
        let data = try Data(contentsOf: bundle.appendingPathComponent("pagefind-entry.json"))
        let entry = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let languages = try #require(entry["languages"] as? [String: [String: Any]])
        return languages.values.reduce(0) { $0 + (($1["page_count"] as? Int) ?? 0) }
    }

    /// Whether any of the first-answer files holds `word`.
    static func firstAnswerHolds(_ output: URL, _ word: String) throws -> Bool {
        let folder = output.appendingPathComponent("search/first")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { name in
            name.hasPrefix("words-") && (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))?.contains(word) == true
        }
    }

    /// Pagefind itself, with a hand on it: while the file `hold` exists in `folder`, it says it
    /// started (the file `started`, holding its process id) and waits; while `fail` exists, it fails.
    static func wrapper(real: String, in folder: URL) throws -> URL {
        let wrapper = folder.appendingPathComponent("pagefind")
        let (hold, started, fail) = (folder.appendingPathComponent("hold").path, folder.appendingPathComponent("started").path,
                                     folder.appendingPathComponent("fail").path)
        try """
            #!/bin/sh
            if [ -e '\(fail)' ]; then echo 'the index was refused' >&2; exit 3; fi
            if [ -e '\(hold)' ]; then echo $$ > '\(started).part' && mv '\(started).part' '\(started)'; sleep 120; fi
            exec '\(real)' "$@"

            """.write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        return wrapper
    }

    @Test("A new page is live before Pagefind runs; Ctrl-C then leaves the last index whole, and the next build indexes the page")
    func pageBeforeIndex() throws {
        let site = try KillTests.copyDemo()
        let output = site.appendingPathComponent("public")
        // Bundles changed in the last two seconds are not vouched for: these are carried by the later builds.
        Thread.sleep(forTimeInterval: 2.2)
        let first = try TeardownBinary.run(["build", "--site", site.path])
        #expect(first.status == 0, "\(first.stderr)")
        let real = try #require(Self.pagefind(site: site), "Pagefind is installed")
        let before = try #require(try? Self.pageCount(output.appendingPathComponent("pagefind")), "\(first.stdout)\(first.stderr)")
        let folder = TeardownBinary.temporaryFolder()
        let hold = folder.appendingPathComponent("hold"), started = folder.appendingPathComponent("started")
        let wrapper = try Self.wrapper(real: real, in: folder)
        let environment = ["TEARDOWN_PAGEFIND": wrapper.path]
        let wrapped = try TeardownBinary.run(["build", "--site", site.path], environment: environment)
        #expect(wrapped.status == 0)
        #expect((try? Self.pageCount(output.appendingPathComponent("pagefind"))) == before, "\(wrapped.stdout)\(wrapped.stderr)")

        try "# Quixotic\n\nA quixotic flange.\n".write(to: site.appendingPathComponent("content/manual/quixotic.md"),
                                                     atomically: true, encoding: .utf8)
        try Data().write(to: hold)
        let build = Process()
        build.executableURL = TeardownBinary.url
        build.arguments = ["build", "--site", site.path]
        build.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        try build.run()
        let deadline = Date(timeIntervalSinceNow: 120)
        while !FileManager.default.fileExists(atPath: started.path), build.isRunning, Date() < deadline { usleep(20_000) }
        let page = output.appendingPathComponent("manual/quixotic/index.html")
        #expect(FileManager.default.fileExists(atPath: started.path), "Pagefind was started")
        #expect(FileManager.default.fileExists(atPath: page.path), "the new page is live while Pagefind runs")
        #expect(try Self.pageCount(output.appendingPathComponent("pagefind")) == before, "the index published is the last one")
        #expect(try !Self.firstAnswerHolds(output, "quixotic"), "the first answer is made with the index, after the page")
        kill(build.processIdentifier, SIGINT)
        build.waitUntilExit()
        if let pid = (try? String(contentsOf: started, encoding: .utf8)).flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGKILL)
        }
        #expect(build.terminationReason == .uncaughtSignal, "Ctrl-C stopped the build")
        #expect(KillTests.indexIsWhole(output), "the index is whole")
        #expect(FileManager.default.fileExists(atPath: page.path))

        try FileManager.default.removeItem(at: hold)
        let next = try TeardownBinary.run(["build", "--site", site.path, "--timings"], environment: environment)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.pageCount(output.appendingPathComponent("pagefind")) == before + 1, "the next build indexed the page")
        #expect(try Self.firstAnswerHolds(output, "quixotic"), "the next build gave the page's words a first answer")
        #expect(next.stdout.contains("search index"))
        #expect(try TeardownBinary.run(["build", "--site", site.path], environment: environment).stdout.contains("nothing changed"))
    }

    @Test("A Pagefind that fails after the pages are published: the build says so, the site is whole, and the next build indexes the page")
    func indexFailsAfterPages() throws {
        let site = try KillTests.copyDemo()
        let output = site.appendingPathComponent("public")
        #expect(try TeardownBinary.run(["build", "--site", site.path]).status == 0)
        let real = try #require(Self.pagefind(site: site), "Pagefind is installed")
        let folder = TeardownBinary.temporaryFolder()
        let environment = ["TEARDOWN_PAGEFIND": try Self.wrapper(real: real, in: folder).path]
        #expect(try TeardownBinary.run(["build", "--site", site.path], environment: environment).status == 0)
        let before = try Self.pageCount(output.appendingPathComponent("pagefind"))

        try "# Quixotic\n\nA quixotic flange.\n".write(to: site.appendingPathComponent("content/manual/quixotic.md"),
                                                     atomically: true, encoding: .utf8)
        try Data().write(to: folder.appendingPathComponent("fail"))
        let failed = try TeardownBinary.run(["build", "--site", site.path], environment: environment)
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("the index was refused") && failed.stderr.contains("the pages are published"), "\(failed.stderr)")
        // What a cron'd `sync --deploy` is told: the output changed, so a deploy has something to send.
        #expect(failed.stderr.contains("its pages were published") && !failed.stderr.contains("the output was not changed"), "\(failed.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("manual/quixotic/index.html").path))
        #expect(KillTests.indexIsWhole(output))
        #expect(try Self.pageCount(output.appendingPathComponent("pagefind")) == before)
        #expect(try !Self.firstAnswerHolds(output, "quixotic"))

        try FileManager.default.removeItem(at: folder.appendingPathComponent("fail"))
        #expect(try TeardownBinary.run(["build", "--site", site.path], environment: environment).status == 0)
        #expect(try Self.pageCount(output.appendingPathComponent("pagefind")) == before + 1, "the next build indexed the page")
        #expect(try Self.firstAnswerHolds(output, "quixotic"), "the next build gave the page's words a first answer")
    }
}
