import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

/// A corpus of bad input, each case written into a copy of the minimal site. A rejected case
/// must be reported at its file (and line, where it has one), and a build must then fail with
/// no output written; an accepted case must build and show its content. None may crash or hang.
// Ten minutes: a hang, not a slow shared machine, is what the limit is for.
@Suite("Bad input", .timeLimit(.minutes(10)))
struct BadInputTests {
    static let box = "content/machines/box"
    static let lid = "content/machines/box/parts/lid"

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// Writes the bad input into the site at the path given.
        let write: @Sendable (String) throws -> Void
        /// The problem, where, and the line (0 when the problem has no line of its own).
        let expected: (problem: Problem, path: String, line: Int)
        var testDescription: String { name }
    }

    static func put(_ text: String, _ path: String) -> @Sendable (String) throws -> Void {
        { site in try Data(text.utf8).write(to: URL(fileURLWithPath: site + "/" + path)) }
    }

    static func bytes(_ data: [UInt8], _ path: String) -> @Sendable (String) throws -> Void {
        { site in try Data(data).write(to: URL(fileURLWithPath: site + "/" + path)) }
    }

    static func link(_ path: String, to target: String) -> @Sendable (String) throws -> Void {
        { site in
            try? FileManager.default.removeItem(atPath: site + "/" + path)
            try FileManager.default.createSymbolicLink(atPath: site + "/" + path, withDestinationPath: target)
        }
    }

    static func folder(_ path: String) -> @Sendable (String) throws -> Void {
        { site in try FileManager.default.createDirectory(atPath: site + "/" + path, withIntermediateDirectories: true) }
    }

    static func copyFolder(_ from: String, _ to: String) -> @Sendable (String) throws -> Void {
        { site in try FileManager.default.copyItem(atPath: site + "/" + from, toPath: site + "/" + to) }
    }

    static let machineYAML = "name: \"Box\"\nsummary: \"A box.\"\ncanvas: {width: 200, height: 100}\n"
    static let partYAML = "name: \"Lid\"\nlayer:\n  image: lid.svg\n  z: 1\n"

    static let rejected: [Case] = [
        // The traps people fall into most: each is said with what to do, at the line to fix.
        Case(name: "unclosed quote in YAML", write: put("name: \"Box\ncanvas: {width: 200, height: 100}\n", box + "/machine.yaml"),
             expected: (.yamlSyntax("the quote here is never closed (found unexpected end of stream)"), box + "/machine.yaml", 1)),
        Case(name: "tab-indented YAML", write: put("name: Lid\nlayer:\n\timage: lid.svg\n", lid + "/part.yaml"),
             expected: (.yamlSyntax("found character that cannot start any token (YAML indents with spaces: this line has a tab)"),
                        lid + "/part.yaml", 3)),
        Case(name: "a colon in a value", write: put("name: \"Box\"\nsummary: A toaster: two slots\ncanvas: {width: 200, height: 100}\n",
                                                  box + "/machine.yaml"),
             expected: (.yamlSyntax("mapping values are not allowed in this context (a value with \": \" in it must be in quotes: "
                                    + "summary: \"A toaster: two slots\")"), box + "/machine.yaml", 2)),
        Case(name: "a colon in a comment's front matter", write: put("---\nauthor: Ada: Lovelace\ndate: 2024-05-01\n---\nHi\n",
                                                                    lid + "/comments/hello.md"),
             expected: (.yamlSyntax("mapping values are not allowed in this context (a value with \": \" in it must be in quotes: "
                                    + "author: \"Ada: Lovelace\")"), lid + "/comments/hello.md", 2)),
        Case(name: "a key indented less than its neighbours", write: put("name: \"Lid\"\nlayer:\n  image: lid.svg\n z: 1\n", lid + "/part.yaml"),
             expected: (.yamlSyntax("did not find expected key (this line is indented 1 space and the line above 2 spaces: "
                                    + "keys of one mapping line up)"), lid + "/part.yaml", 4)),
        Case(name: "a key indented more than its neighbours", write: put("name: \"Lid\"\nlayer:\n  image: lid.svg\n   z: 1\n", lid + "/part.yaml"),
             expected: (.yamlSyntax("mapping values are not allowed in this context (this line is indented 3 spaces, more than the key "
                                    + "above it, whose value is already given: indent it 2 spaces to make it a key beside that one)"),
                        lid + "/part.yaml", 4)),
        Case(name: "a key indented more than the quoted value above it", write: put("name: \"Box\"\n  summary: A box\n", box + "/machine.yaml"),
             expected: (.yamlSyntax("did not find expected key (this line is indented 2 spaces, more than the key "
                                    + "above it, whose value is already given: start it at the beginning of the line to make it a key beside that one)"),
                        box + "/machine.yaml", 2)),
        Case(name: "an unclosed bracket", write: put("name: \"Box\"\ntags: [a, b\ncanvas: {width: 200, height: 100}\n", box + "/machine.yaml"),
             expected: (.yamlSyntax("the '[' here is never closed (did not find expected ',' or ']', line 3)"), box + "/machine.yaml", 2)),
        Case(name: "a list where a mapping belongs", write: put("- name\n- layer\n", lid + "/part.yaml"),
             expected: (.notAMapping(expected: "part details"), lid + "/part.yaml", 1)),
        Case(name: "canvas of the wrong type", write: put("name: Box\ncanvas: big\n", box + "/machine.yaml"),
             expected: (.wrongType(key: "canvas", expected: "a mapping"), box + "/machine.yaml", 2)),
        Case(name: "z of the wrong type", write: put("name: Lid\nlayer: {image: lid.svg, z: top}\n", lid + "/part.yaml"),
             expected: (.wrongType(key: "z", expected: "a whole number"), lid + "/part.yaml", 2)),
        Case(name: "a comment date of the wrong type", write: put("---\nauthor: Ada\ndate: [2024]\n---\nHi\n", lid + "/comments/hello.md"),
             expected: (.wrongType(key: "date", expected: "text"), lid + "/comments/hello.md", 3)),
        Case(name: "machines differing only in case", write: copyFolder(box, "content/machines/Box"),
             expected: (.sameNameButCase("box", "Box"), box, 0)),
        Case(name: "parts differing only in case", write: copyFolder(lid, box + "/parts/LID"),
             expected: (.sameNameButCase("lid", "LID"), lid, 0)),
        Case(name: "Latin-1 text", write: bytes(Array("---\nauthor: Ren".utf8) + [0xE9] + Array("\ndate: 2024-05-01\n---\nCaf".utf8) + [0xE9],
                                                lid + "/comments/hello.md"),
             expected: (.notUTF8, lid + "/comments/hello.md", 1)),
        Case(name: "a NUL byte", write: bytes(Array("The lid".utf8) + [0] + Array("s description.".utf8), lid + "/description.md"),
             expected: (.notUTF8, lid + "/description.md", 1)),
        Case(name: "a description linked to a file outside content/", write: link(lid + "/description.md", to: "/etc/passwd"),
             expected: (.symbolicLink, lid + "/description.md", 1)),
        Case(name: "machine.yaml linked elsewhere", write: link(box + "/machine.yaml", to: "/etc/hostname"),
             expected: (.symbolicLink, box + "/machine.yaml", 1)),
        Case(name: "a machine folder linked outside content/", write: link("content/machines/etc", to: "/etc"),
             expected: (.symbolicLink, "content/machines/etc", 0)),
        Case(name: "a comments folder linked outside content/", write: link(lid + "/comments", to: "/tmp"),
             expected: (.symbolicLink, lid + "/comments", 0)),
        Case(name: "a layer image linked outside content/", write: link(lid + "/lid.svg", to: Fixtures.site("minimal") + "/" + lid + "/lid.svg"),
             expected: (.unreadableImage("lid.svg", reason: "it is a symbolic link, which could lead out of content/"), lid + "/part.yaml", 3)),
        Case(name: "a cover linked outside content/", write: { site in
                 try put(machineYAML + "cover: front.jpg\n", box + "/machine.yaml")(site)
                 try link(box + "/front.jpg", to: Fixtures.site("photos") + "/content/machines/camera/parts/body/photos/orientation-1.jpg")(site)
             },
             expected: (.unreadableImage("front.jpg", reason: "it is a symbolic link, which could lead out of content/"), box + "/machine.yaml", 4)),
        Case(name: "a broken link for a description", write: link(lid + "/description.md", to: "nowhere.md"),
             expected: (.symbolicLink, lid + "/description.md", 1)),
        Case(name: "a layer image up the tree", write: put("name: Lid\nlayer: {image: ../../../../site.yaml, z: 1}\n", lid + "/part.yaml"),
             expected: (.invalidValue(key: "image", reason: "must be a file name in the part folder"), lid + "/part.yaml", 2)),
        Case(name: "a cover up the tree", write: put(machineYAML + "cover: ../../site.yaml\n", box + "/machine.yaml"),
             expected: (.invalidValue(key: "cover", reason: "must be a file name in the machine folder"), box + "/machine.yaml", 4)),
        Case(name: "a part name with a space", write: copyFolder(lid, box + "/parts/big lid"),
             expected: (.invalidName("big lid"), box + "/parts/big lid", 0)),
        Case(name: "a machine name with an accent", write: copyFolder(box, "content/machines/düse"),
             expected: (.invalidName("düse"), "content/machines/düse", 0)),
        // 252 characters fit the folder but not downloads/<name>.zip: refused at the bundle, not at publish.
        Case(name: "a machine name too long to publish", write: copyFolder(box, "content/machines/" + String(repeating: "m", count: 252)),
             expected: (.invalidName(String(repeating: "m", count: 252)), "content/machines/" + String(repeating: "m", count: 252), 0)),
        Case(name: "a part name with dots", write: copyFolder(lid, box + "/parts/lid..old"),
             expected: (.invalidName("lid..old"), box + "/parts/lid..old", 0)),
        Case(name: "an empty machine folder", write: folder("content/machines/hollow"),
             expected: (.missingFile("machine.yaml"), "content/machines/hollow", 0)),
        Case(name: "an empty part folder", write: folder(box + "/parts/void"),
             expected: (.missingFile("part.yaml"), box + "/parts/void", 0)),
        Case(name: "an empty machine.yaml", write: put("", box + "/machine.yaml"),
             expected: (.missingKey("name"), box + "/machine.yaml", 1)),
        Case(name: "an empty comment", write: put("", lid + "/comments/hello.md"),
             expected: (.missingKey("author"), lid + "/comments/hello.md", 1)),
        Case(name: "an empty author", write: put("---\nauthor: \"\"\ndate: 2024-05-01\n---\nHi\n", lid + "/comments/hello.md"),
             expected: (.invalidValue(key: "author", reason: "must not be empty"), lid + "/comments/hello.md", 2)),
        Case(name: "unclosed front matter", write: put("---\nauthor: Ada\n\nHello\n", lid + "/comments/hello.md"),
             expected: (.unclosedFrontMatter, lid + "/comments/hello.md", 1)),
        Case(name: "no search shards", write: put("title: \"Tiny catalog\"\nsearch_shards: 0\n", "content/site.yaml"),
             expected: (.invalidValue(key: "search_shards", reason: "must be at least 1"), "content/site.yaml", 2)),
        Case(name: "more search shards than allowed", write: put("title: \"Tiny catalog\"\nsearch_shards: 65\n", "content/site.yaml"),
             expected: (.invalidValue(key: "search_shards", reason: "must be at most 64"), "content/site.yaml", 2)),
        Case(name: "a recent shard of fewer than no pages", write: put("title: \"Tiny catalog\"\nsearch_recent: -1\n", "content/site.yaml"),
             expected: (.invalidValue(key: "search_recent", reason: "must be 0 or more"), "content/site.yaml", 2)),
        Case(name: "nesting past YAML's limit", write: put(machineYAML + "tags: " + String(repeating: "[", count: 100_000)
                                                               + String(repeating: "]", count: 100_000) + "\n", box + "/machine.yaml"),
             expected: (.yamlSyntax("lists and mappings are nested too deep here (more than 1,000 levels)"), box + "/machine.yaml", 4)),
        // Yams names the mapping's start (line 1); the key given again is on line 4.
        Case(name: "a key given twice", write: put(machineYAML + "name: \"Box again\"\n", box + "/machine.yaml"),
             expected: (.yamlSyntax("the key 'name' is given twice: first on line 1, again here"), box + "/machine.yaml", 4)),
        Case(name: "a key given twice in front matter",
             write: put("---\nauthor: Ada\ndate: 2024-05-01\nauthor: Eve\n---\nHi\n", lid + "/comments/hello.md"),
             expected: (.yamlSyntax("the key 'author' is given twice: first on line 2, again here"), lid + "/comments/hello.md", 4)),
    ]

    @Test("Rejected input is reported at its place, and a build writes nothing", arguments: rejected)
    func rejectedInput(_ bad: Case) throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        try bad.write(site)
        let diagnostics = SiteBuilder(siteRoot: site).check()
        let (problem, path, line) = bad.expected
        let found = diagnostics.first { $0.problem == problem }
        #expect(found?.severity == .error, "\(diagnostics.map(\.description))")
        #expect(found?.location.path == path)
        if line > 0 { #expect(found?.location.line == line) }
        let output = site + "/public"
        #expect(throws: BuildFailure.self) { try SiteBuilder(siteRoot: site, output: output).build() }
        #expect(!TextFile.exists(output), "nothing half-written")
    }

    @Test("A byte order mark, Windows line ends and YAML aliases read like plain files")
    func acceptedInput() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let bom = "\u{FEFF}"
        try (bom + Self.machineYAML.replacingOccurrences(of: "\n", with: "\r\n")
            + "tags: &t [one, two]\r\nalias: *t\r\n").write(toFile: site + "/" + Self.box + "/machine.yaml", atomically: true, encoding: .utf8)
        try (bom + "---\r\nauthor: Ada\r\ndate: 2024-05-01\r\n---\r\nHello, **lid**.\r\n\r\nSecond paragraph.\r\n")
            .write(toFile: site + "/" + Self.lid + "/comments/hello.md", atomically: true, encoding: .utf8)
        try (bom + Self.partYAML.replacingOccurrences(of: "\n", with: "\r\n") + "specs:\r\n  Mass: \"1.2 kg\"\r\n")
            .write(toFile: site + "/" + Self.lid + "/part.yaml", atomically: true, encoding: .utf8)
        let output = site + "/public"
        let report = try SiteBuilder(siteRoot: site, output: output).build()
        #expect(report.warnings.map(\.problem) == [.unknownKey("alias", known: MachineLoader.machineKeys.sorted())])
        let part = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        #expect(part.contains("<p>Hello, <strong>lid</strong>.</p>\n<p>Second paragraph.</p>"))
        #expect(part.contains(">Ada<"))
        #expect(part.contains("≈&nbsp;2.65 lb"))
        #expect(!part.contains("\r"))
        let machine = Fixtures.read(output + "/machines/box/index.html")
        #expect(machine.contains(">Box</h1>"))
        #expect(!machine.contains("\u{FEFF}"))
    }

    /// Sync holds submissions to the limits; a file already in a bundle was put there by hand,
    /// and is kept, with a warning, rather than lost.
    @Test("Community content over the limits is a warning at its line; nothing is lost and the build goes on", arguments: [
        ("---\nauthor: Ada\ndate: 2024-05-01\n---\n" + String(repeating: "a", count: 201), Problem.commentLength(201, min: 1, max: 200), 5),
        ("---\nauthor: Ada Lovelace, Countess of Lovelace, of London\ndate: 2024-05-01\n---\nHi\n", .authorLength("Ada Lovelace, Countess of Lovelace, of London", min: 1, max: 40), 2),
    ])
    func overLimits(_ text: String, _ problem: Problem, _ line: Int) throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        try text.write(toFile: site + "/" + Self.lid + "/comments/hello.md", atomically: true, encoding: .utf8)
        let output = site + "/public"
        let report = try SiteBuilder(siteRoot: site, output: output).build()
        #expect(report.warnings.map(\.problem) == [problem])
        #expect(report.warnings.first?.location == SourceLocation(Self.lid + "/comments/hello.md", line: line,
                                                                  column: report.warnings.first?.location.column ?? 0))
        #expect(Fixtures.read(output + "/machines/box/parts/lid/index.html").contains("id=\"comment-hello\""))
    }

    @Test("A photo linked from outside content/ is skipped with a warning, and the rest builds")
    func linkedPhoto() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        try FileManager.default.createDirectory(atPath: site + "/" + Self.lid + "/photos", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site + "/" + Self.lid + "/photos/secret.jpg",
                                                   withDestinationPath: Fixtures.site("photos") + "/content/machines/camera/parts/body/photos/orientation-1.jpg")
        let output = site + "/public"
        let report = try SiteBuilder(siteRoot: site, output: output).build()
        #expect(report.warnings.map(\.location.path) == [Self.lid + "/photos/secret.jpg"])
        #expect(report.warnings.first?.problem.message.contains("symbolic link") == true)
        #expect(!TextFile.exists(output + "/machines/box/parts/lid/photos/secret/index.html"))
    }
}
