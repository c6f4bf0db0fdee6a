import Foundation
import Testing

@Suite("The teardown command")
struct CLITests {
    static let fixtures = TeardownBinary.packageRoot.appendingPathComponent("Tests/TeardownKitTests/Fixtures")

    @Test("--version prints the version")
    func version() throws {
        let result = try TeardownBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test("A mistyped command names the one it most likely meant; a made-up one is refused plainly, its text made safe")
    func mistypedCommand() throws {
        let typo = try TeardownBinary.run(["bild"])
        #expect(typo.status == 64)
        #expect(typo.stderr == "error: unknown command 'bild'; did you mean 'build'? ('teardown help' lists them)\n", "\(typo.stderr)")
        // Two letters swapped are one slip.
        let swapped = try TeardownBinary.run(["biuld"])
        #expect(swapped.stderr == "error: unknown command 'biuld'; did you mean 'build'? ('teardown help' lists them)\n", "\(swapped.stderr)")
        let other = try TeardownBinary.run(["xyzzy\u{1B}[31m"])
        #expect(other.status == 64)
        #expect(other.stderr == "error: unknown command 'xyzzy\\u{1B}[31m' ('teardown help' lists them)\n", "\(other.stderr)")
        #expect(try TeardownBinary.run(["help"]).status == 0)
    }

    @Test("Every command has help", arguments: [["build"], ["check"], ["sync"], ["serve"], ["intake"], ["moderate"],
                                                ["new", "site"], ["new", "machine"]])
    func help(_ command: [String]) throws {
        let result = try TeardownBinary.run(["help"] + command)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: teardown \(command.joined(separator: " "))"))
    }

    @Test("check prints path:line:col and exits 1 for each invalid fixture", arguments: [
        ("yaml-syntax", "content/machines/box/machine.yaml:2:10: error: YAML syntax error: the '[' here is never closed"),
        ("missing-layer-image", "content/machines/box/parts/lid/part.yaml:3:10: error: layer image 'ghost.png' does not exist"),
        ("bad-date", "content/machines/box/parts/lid/comments/hello.md:3:7: error: 'date' is not an ISO 8601 date"),
        ("template-syntax", "Themes/default/templates/part.mustache:5:1: error: template syntax error"),
        ("missing-partial", "Themes/default/templates/footer.mustache:2:3: error: partial 'credits' does not exist"),
    ])
    func checkInvalid(_ name: String, _ expected: String) throws {
        let result = try TeardownBinary.run(["check", "--site", "."],
                                            in: Self.fixtures.appendingPathComponent("invalid/\(name)"))
        #expect(result.status == 1)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test("Diagnostics are coloured on a terminal, plain when piped or with NO_COLOR, and never pass content's escape sequences")
    func colourAndSafety() throws {
        let site = TeardownBinary.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("sites/minimal"), to: site)
        // A part folder whose name would turn the terminal red and retitle its window.
        let parts = site.appendingPathComponent("content/machines/box/parts")
        try FileManager.default.copyItem(at: parts.appendingPathComponent("lid"),
                                         to: parts.appendingPathComponent("lid\u{1B}]0;owned\u{07}\u{1B}[31m"))
        let piped = try TeardownBinary.run(["check", "--site", site.path])
        #expect(piped.status == 1)
        #expect(!piped.stderr.contains("\u{1B}") && !piped.stderr.contains("\u{07}"), "\(piped.stderr)")
        #expect(piped.stderr.contains("lid\\u{1B}]0;owned\\u{7}\\u{1B}[31m"), "\(piped.stderr)")
        #expect(piped.stderr.contains(": error: "))

        // `script` gives the command a terminal, as a user's shell does.
        func onTerminal(_ environment: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", "\(environment) \(TeardownBinary.url.path) check --site \(site.path)", "/dev/null"]
            let out = Pipe()
            process.standardOutput = out
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let coloured = try onTerminal("env -u NO_COLOR TERM=xterm")
        #expect(coloured.contains("\u{1B}[31merror:\u{1B}[0m"), "\(coloured)")
        #expect(!coloured.contains("\u{07}"), "the name's own escapes stay escaped on a terminal too")
        let plain = try onTerminal("env TERM=xterm NO_COLOR=1")
        #expect(plain.contains("error:") && !plain.contains("\u{1B}[31m"), "\(plain)")
    }

    /// An intake inbox with an empty manifest and the folder of one held submission.
    static func heldInbox(_ id: String) throws -> (inbox: URL, held: URL) {
        let inbox = TeardownBinary.temporaryFolder().appendingPathComponent("inbox")
        let held = inbox.appendingPathComponent(".pending/\(id)")
        try FileManager.default.createDirectory(at: held, withIntermediateDirectories: true)
        try Data(#"{"version": 1, "submissions": []}"#.utf8).write(to: inbox.appendingPathComponent("manifest.json"))
        return (inbox, held)
    }

    @Test("moderate lists held submissions, approves them into the manifest, and says which ids are not waiting")
    func moderate() throws {
        let id = "20261121-101500-0123456789ab"
        let (inbox, held) = try Self.heldInbox(id)
        // Its last line would clear the moderator's screen and hide what follows.
        try Data("---\nmachine: box\nauthor: Ada\ndate: 2026-11-21T10:15:00Z\n---\nA held comment.\n\u{1B}[2J\u{1B}[8mhidden\n".utf8)
            .write(to: held.appendingPathComponent("\(id).comment.md"))

        let list = try TeardownBinary.run(["moderate", "--inbox", inbox.path])
        #expect(list.status == 0)
        #expect(list.stdout.contains("\(id)  comment") && list.stdout.contains("    A held comment."))
        #expect(!list.stdout.contains("\u{1B}") && list.stdout.contains("    \\u{1B}[2J\\u{1B}[8mhidden"), "\(list.stdout)")
        #expect(list.stdout.contains("1 waiting"))

        let approve = try TeardownBinary.run(["moderate", "--inbox", inbox.path, "approve", id, "not-held"])
        #expect(approve.status == 1)
        #expect(approve.stdout.contains("Approved: \(id)"))
        #expect(approve.stderr.contains("Not waiting for moderation: not-held"))
        let manifest = try String(contentsOf: inbox.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"\(id).comment.md\""))
        #expect(FileManager.default.fileExists(atPath: inbox.appendingPathComponent("\(id).comment.md").path))
        #expect(try TeardownBinary.run(["moderate", "--inbox", inbox.path]).stdout.contains("Nothing is waiting"))

        let pruned = try TeardownBinary.run(["moderate", "--inbox", inbox.path, "prune", "--before", "2026-11-22"])
        #expect(pruned.status == 0 && pruned.stdout.contains("Pruned 1 submission received before 2026-11-22"))
        #expect(!(try String(contentsOf: inbox.appendingPathComponent("manifest.json"), encoding: .utf8)).contains(id))
        #expect(try TeardownBinary.run(["moderate", "--inbox", inbox.path, "prune"]).stderr.contains("prune needs --before"))

        let elsewhere = try TeardownBinary.run(["moderate", "--inbox", inbox.deletingLastPathComponent().path])
        #expect(elsewhere.status != 0 && elsewhere.stderr.contains("is not an intake inbox"))
    }

    @Test("moderate list shows a held photo's file, pixel size and weight, so the moderator can look at it")
    func moderatePhoto() throws {
        let id = "20261121-101500-abcdef012345"
        let (inbox, held) = try Self.heldInbox(id)
        try Data("machine: box\nauthor: Ada\ndate: 2026-11-21T10:15:00Z\ncaption: The lid, open\n".utf8)
            .write(to: held.appendingPathComponent("\(id).photo.yaml"))
        // A PNG's signature and header: 640 by 480 pixels.
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        png += Data([0, 0, 0x02, 0x80, 0, 0, 0x01, 0xE0, 8, 6, 0, 0, 0]) + Data(repeating: 0, count: 1200)
        try png.write(to: held.appendingPathComponent("\(id).png"))
        let list = try TeardownBinary.run(["moderate", "--inbox", inbox.path])
        #expect(list.status == 0)
        #expect(list.stdout.contains("\(id)  photo") && list.stdout.contains("caption: The lid, open"), "\(list.stdout)")
        #expect(list.stdout.contains("    \(held.path)/\(id).png (640 × 480 px, 1 KB)"), "\(list.stdout)")
    }

    @Test("check --strict reports warnings as errors and exits 1")
    func strictCheck() throws {
        let site = Self.fixtures.appendingPathComponent("sites/specs")
        let relaxed = try TeardownBinary.run(["check", "--site", "."], in: site)
        #expect(relaxed.status == 0)
        #expect(relaxed.stderr.contains(
            "content/machines/box/parts/lid/part.yaml:13:13: warning: spec 'Firmware' value '1.2.3 GB' is not a quantity"),
            "\(relaxed.stderr)")
        #expect(relaxed.stdout.contains("0 errors, 5 warnings"))
        let strict = try TeardownBinary.run(["check", "--site", ".", "--strict"], in: site)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains(
            "content/machines/box/parts/lid/part.yaml:13:13: error: spec 'Firmware' value '1.2.3 GB' is not a quantity"),
            "\(strict.stderr)")
        #expect(strict.stdout.contains("5 errors, 0 warnings"))
    }

    @Test("Raw HTML in the manual: <kbd> kept, <marquee> warned of at its line, an error under check --strict")
    func rawHTML() throws {
        let site = TeardownBinary.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("sites/manual"), to: site)
        let page = site.appendingPathComponent("content/manual/glossary.md")
        let text = try String(contentsOf: page, encoding: .utf8) + "\nPress <kbd>Ctrl</kbd>+<kbd>C</kbd>.\n\n<marquee>Look</marquee>\n"
        try text.write(to: page, atomically: true, encoding: .utf8)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let relaxed = try TeardownBinary.run(["check", "--site", "."], in: site)
        #expect(relaxed.status == 0)
        #expect(relaxed.stderr.contains("content/manual/glossary.md:\(line):1: warning: raw HTML <marquee> is left out"), "\(relaxed.stderr)")
        let strict = try TeardownBinary.run(["check", "--site", ".", "--strict"], in: site)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("content/manual/glossary.md:\(line):1: error: raw HTML <marquee> is left out"), "\(strict.stderr)")
        let build = try TeardownBinary.run(["build", "--site", "."], in: site)
        #expect(build.status == 0)
        let html = try String(contentsOf: site.appendingPathComponent("public/manual/glossary/index.html"), encoding: .utf8)
        #expect(html.contains("Press <kbd>Ctrl</kbd>+<kbd>C</kbd>.") && !html.contains("marquee"))
    }

    @Test("check names files relative to where it runs")
    func checkPathsFromElsewhere() throws {
        let result = try TeardownBinary.run(["check", "--site", "invalid/missing-name"], in: Self.fixtures)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("invalid/missing-name/content/machines/box/machine.yaml:1:1: error: missing required key 'name'"))
    }

    @Test("A failed build writes nothing and says so")
    func failedBuild() throws {
        let output = TeardownBinary.temporaryFolder().appendingPathComponent("out")
        let result = try TeardownBinary.run(["build", "--site", Self.fixtures.appendingPathComponent("invalid/wrong-type").path,
                                             "--output", output.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Build failed in step 'load': 1 error, 0 warnings; the output was not changed."))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("new site and new machine scaffold a site that builds")
    func scaffold() throws {
        let folder = TeardownBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try TeardownBinary.run(["new", "site", "shop", "--title", #"Bob's "best" \ repair shop"#], in: folder)
        #expect(made.status == 0)
        #expect(made.stdout.contains("Next: teardown serve --site shop"), "\(made.stdout)")
        let site = folder.appendingPathComponent("shop")
        // The paths printed are where the files are from the folder the command ran in.
        let added = try TeardownBinary.run(["new", "machine", "toaster", "--site", "shop"], in: folder)
        #expect(added.status == 0)
        #expect(added.stdout.contains("created shop/content/machines/toaster/machine.yaml"), "\(added.stdout)")
        // A title given for a folder name is refused with the name it would make.
        let titled = try TeardownBinary.run(["new", "machine", "My Toaster!", "--site", site.path])
        #expect(titled.status == 1)
        #expect(titled.stderr.contains("did you mean 'my-toaster'?"), "\(titled.stderr)")
        let again = try TeardownBinary.run(["new", "machine", "toaster", "--site", site.path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists"))

        let check = try TeardownBinary.run(["check", "--site", site.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("0 errors, 0 warnings"))
        let build = try TeardownBinary.run(["build", "--site", site.path, "--base-url", "https://example.org/shop/"])
        #expect(build.status == 0, "\(build.stderr)")
        let home = try String(contentsOf: site.appendingPathComponent("public/index.html"), encoding: .utf8)
        #expect(home.contains("Bob&#39;s &quot;best&quot; \\ repair shop") || home.contains("Bob's &quot;best&quot; \\ repair shop"),
                "the title survives YAML quoting")
        #expect(home.contains("<link rel=\"canonical\" href=\"https://example.org/shop/\">"))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/machines/toaster/parts/lid/index.html").path))
        let notFound = try String(contentsOf: site.appendingPathComponent("public/404.html"), encoding: .utf8)
        #expect(notFound.contains("href=\"/shop/assets/style.css\""), "the 404 page links from the base path")
    }

    @Test("build --timings prints every step; a missing or damaged content cache is said in one line and read again")
    func timingsAndContentCache() throws {
        let folder = TeardownBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try TeardownBinary.run(["new", "site", "shop"], in: folder).status == 0)
        let site = folder.appendingPathComponent("shop")
        #expect(try TeardownBinary.run(["new", "machine", "toaster", "--site", site.path]).status == 0)
        // A bundle changed in the last two seconds is never taken from the cache (its times cannot
        // vouch for it yet), nor stored: let the new files age first.
        Thread.sleep(forTimeInterval: 2.2)
        let first = try TeardownBinary.run(["build", "--site", site.path, "--timings"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("note: no content cache yet: every bundle is read"))
        for step in ["check inputs", "load", "images", "plan", "fingerprint", "render", "search index", "first answer", "publish"] {
            #expect(first.stdout.contains("  \(step) "), "the timings name step '\(step)'")
        }
        // A cache entry cut short, as a full disk might leave it, and a change elsewhere that makes the build read it.
        let entry = site.appendingPathComponent(".teardown-cache/content/toaster.bundle")
        let bytes = try Data(contentsOf: entry)
        try bytes.prefix(bytes.count / 2).write(to: entry)
        #expect(try TeardownBinary.run(["new", "machine", "kettle", "--site", site.path]).status == 0)
        let second = try TeardownBinary.run(["build", "--site", site.path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("note: the content cache's entry for 'toaster' was damaged: the bundle is read again"))
        let page = try String(contentsOf: site.appendingPathComponent("public/machines/toaster/index.html"), encoding: .utf8)
        #expect(page.contains("Toaster") || page.contains("toaster"))
        // Another change, so the next build reads the toaster's entry again: whole now.
        #expect(try TeardownBinary.run(["new", "machine", "lamp", "--site", site.path]).status == 0)
        let third = try TeardownBinary.run(["build", "--site", site.path])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(!third.stdout.contains("note:"), "the entry was written again")

        // A copied site, and then a changed site.yaml: the note says which, and nothing else.
        let copy = folder.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: site, to: copy)
        let copied = try TeardownBinary.run(["build", "--site", copy.path])
        #expect(copied.stdout.contains(
            "note: the content cache was made for the site in another folder (moved or copied since): every bundle is read again"),
            "\(copied.stdout)")
        let settings = copy.appendingPathComponent("content/site.yaml")
        try (String(contentsOf: settings, encoding: .utf8) + "# the shop's own settings\n").write(to: settings, atomically: true, encoding: .utf8)
        let edited = try TeardownBinary.run(["build", "--site", copy.path])
        #expect(edited.stdout.contains("note: the content cache was made with another site.yaml: every bundle is read again"),
                "\(edited.stdout)")
        #expect(!edited.stdout.contains("version") && !edited.stdout.contains("another build"))
    }

    @Test("A machine.yaml that does not load is reported at its own line, and not again by the collection listing it")
    func noCascade() throws {
        let folder = TeardownBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try TeardownBinary.run(["new", "site", "shop"], in: folder).status == 0)
        let site = folder.appendingPathComponent("shop")
        #expect(try TeardownBinary.run(["new", "machine", "toaster", "--site", site.path]).status == 0)
        let settings = site.appendingPathComponent("content/site.yaml")
        try (String(contentsOf: settings, encoding: .utf8) + "collections:\n  kitchen:\n    title: Kitchen\n    machines: [toaster, kettle]\n")
            .write(to: settings, atomically: true, encoding: .utf8)
        let machine = site.appendingPathComponent("content/machines/toaster/machine.yaml")
        try (String(contentsOf: machine, encoding: .utf8) + "tags: [broken\n").write(to: machine, atomically: true, encoding: .utf8)
        let check = try TeardownBinary.run(["check", "--site", site.path])
        #expect(check.status == 1)
        #expect(check.stderr.contains("machine.yaml:") && check.stderr.contains("error: YAML syntax error"), "\(check.stderr)")
        #expect(!check.stderr.contains("lists 'toaster'"), "\(check.stderr)")
        #expect(check.stderr.contains("lists 'kettle', which is not a machine"), "a machine that is not there is still named")
    }
}
