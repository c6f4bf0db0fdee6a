import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

@Suite("Loading content")
struct ContentLoaderTests {
    @Test("A valid site loads into typed values")
    func loadsMinimalSite() throws {
        let (content, diagnostics) = ContentLoader(siteRoot: Fixtures.site("minimal")).load()
        #expect(diagnostics.isEmpty)
        #expect(content.config.title == "Tiny catalog")
        #expect(content.config.basePath == "/catalog/")
        let machine = try #require(content.machines.first)
        #expect(machine.name == "Box")
        #expect(machine.canvas == PixelSize(width: 200, height: 100))
        let part = try #require(machine.parts.first)
        #expect(part.name == "Lid")
        #expect(part.layer.z == 1)
        #expect(part.specs.map(\.label) == ["Mass"])
        #expect(part.specs.map(\.value) == ["1.2 kg"])
        #expect(part.specs.first?.reading.quantity?.form == .single(1.2))
        #expect(part.specs.first?.reading.quantity?.unit?.symbol == "kg")
        #expect(part.community.comments.map(\.author) == ["Ada"])
        #expect(content.manual.pages.map(\.title) == ["Help"])
    }

    @Test("An empty or null value counts as not given")
    func nullValues() {
        var diagnostics: [Diagnostic] = []
        let file = SourceFile(absolutePath: "/x/machine.yaml", displayPath: "machine.yaml")
        let yaml = YAMLMap.parse("name: ~\nsummary:\n", file: file, expected: "test", diagnostics: &diagnostics)
        #expect(yaml?.string("summary", diagnostics: &diagnostics) == nil)
        #expect(yaml?.string("name", required: true, diagnostics: &diagnostics) == nil)
        #expect(diagnostics == [.error(.missingKey("name"), at: SourceLocation("machine.yaml", line: 1, column: 1))])
    }

    @Test("Comments are ordered newest first")
    func commentsNewestFirst() throws {
        let (content, _) = ContentLoader(siteRoot: Fixtures.site("paginated")).load()
        let comments = try #require(content.machines.first?.parts.first?.community.comments)
        #expect(comments.map(\.author).prefix(3) == ["Ada", "User12", "User11"])
        #expect(comments.last?.author == "User1")
    }

    @Test("Unknown keys are warnings with their line, and the site still builds")
    func unknownKeyWarns() {
        let diagnostics = SiteBuilder(siteRoot: Fixtures.site("unknown-key")).check()
        #expect(diagnostics == [
            .warning(.unknownKey("colour", known: MachineLoader.machineKeys.sorted()),
                     at: SourceLocation("content/machines/box/machine.yaml", line: 4, column: 1)),
        ])
        #expect(diagnostics.first?.problem.message.hasPrefix("unknown key 'colour' is ignored. Valid keys are canvas, cover,") == true)
    }

    @Test("An unknown key's warning suggests the key it most likely meant", arguments: [
        ("tittle", "did you mean 'title'? Valid"), ("base-url", "did you mean 'base_url'?"), ("Search", "did you mean 'search'?"),
        ("comments_per_pages", "did you mean 'comments_per_page'?"), ("tilte", "did you mean 'title'?"),
    ])
    func unknownKeyHint(_ key: String, _ hint: String) throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        try (Fixtures.read(site + "/content/site.yaml") + "\(key): 1\n").write(toFile: site + "/content/site.yaml",
                                                                             atomically: true, encoding: .utf8)
        let warning = SiteBuilder(siteRoot: site).check().first { if case .unknownKey = $0.problem { true } else { false } }
        #expect(warning?.problem.message.contains(hint) == true, "\(String(describing: warning))")
        #expect(warning?.problem.message.contains("Valid keys are base_url, bug_report_url,") == true)
    }

    @Test("The demo catalog has the promised content and no problems")
    func demoCatalog() {
        let (content, diagnostics) = ContentLoader(siteRoot: Fixtures.demoSite).load()
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(content.machines.count >= 3)
        #expect(content.machines.contains { $0.slug == "personal-computer" && $0.parts.contains { $0.slug == "dvd-drive" } })
        #expect(content.machines.reduce(0) { $0 + $1.parts.count } >= 24)
        #expect(content.machines.reduce(0) { $0 + $1.commentCount } >= 40)
        #expect(Set(content.machines.flatMap { m in m.parts.flatMap { $0.community.comments.map(\.author) } }).count >= 5)
        #expect(content.machines.reduce(0) { $0 + $1.photoCount } >= 3)
        #expect(content.manual.pages.count >= 6)
    }

    @Test("Photos that cannot be published are taken out of the machines that hold them; no other machine's head is read")
    func withoutPhotos() throws {
        let content = ContentLoader(siteRoot: Fixtures.site("photos")).load().content
        let camera = try #require(content.machines.first)
        let photo = try #require(camera.allPhotos.first)
        let reads = Locked(0)
        let crate = SourceFile(root: Fixtures.site("photos"), relative: "content/machines/crate")
        let stored = MachineHeadStore(read: { reads.withLock { $0 += 1 }; return nil }, slug: "crate", folder: crate,
                                      brief: camera.brief, counters: .none, reload: { nil })
        let other = Machine(slug: "crate", folder: crate, head: stored, text: MachineTextStore(camera.text.value))
        let kept = SiteContent(root: content.root, config: content.config, machines: [camera, other], manual: content.manual)
            .withoutPhotos([photo.file.absolutePath])
        #expect(kept.machines[0].photoCount == camera.photoCount - 1)
        #expect(!kept.machines[0].allPhotos.contains { $0.file == photo.file })
        #expect(reads.withLock { $0 } == 0, "the crate holds none of them: its head is not read")
    }
}
