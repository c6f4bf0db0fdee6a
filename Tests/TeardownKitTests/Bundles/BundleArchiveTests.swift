import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild
@testable import TeardownInbox

/// Bundles shipped as .zip archives: the same machine as the folder, and no trust in the archive.
@Suite("Bundle archives")
struct BundleArchiveTests {
    /// The minimal site with its "box" folder replaced by one of the archive fixtures.
    private func site(with archive: String, limit: Int? = nil) throws -> String {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        try FileManager.default.removeItem(atPath: site + "/content/machines/box")
        try FileManager.default.copyItem(atPath: Fixtures.root + "/archives/" + archive,
                                         toPath: site + "/content/machines/box.zip")
        if let limit {
            let config = site + "/content/site.yaml"
            try (Fixtures.read(config) + "limits:\n  bundle_max_bytes: \(limit)\n").write(toFile: config, atomically: true, encoding: .utf8)
        }
        return site
    }

    private func load(_ site: String) -> (SiteContent, [Diagnostic]) {
        ContentLoader(siteRoot: site, archiveCache: site + "/.teardown-cache/bundles").load()
    }

    @Test("A .zip of a bundle loads exactly like its folder, zipped with its folder or without", arguments: ["good.zip", "flat.zip"])
    func sameAsFolder(archive: String) throws {
        let (folder, folderDiagnostics) = load(Fixtures.site("minimal"))
        let site = try site(with: archive)
        let (zipped, diagnostics) = load(site)
        #expect(folderDiagnostics == [] && diagnostics == [], "\(diagnostics)")
        let machine = try #require(zipped.machines.first)
        let original = try #require(folder.machines.first)
        #expect(machine.slug == "box" && machine.name == original.name && machine.canvas == original.canvas)
        #expect(machine.parts.map(\.slug) == original.parts.map(\.slug))
        #expect(machine.parts.first?.specs == original.parts.first?.specs)
        #expect(machine.parts.first?.community.comments.map(\.body.text) == original.parts.first?.community.comments.map(\.body.text))
        #expect(machine.archive == "content/machines/box.zip")
        // The archive itself is left as it was.
        #expect(FileManager.default.contentsEqual(atPath: site + "/content/machines/box.zip", andPath: Fixtures.root + "/archives/" + archive))

        let output = (site as NSString).deletingLastPathComponent + "/public"
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        #expect(Fixtures.read(output + "/machines/box/parts/lid/index.html").contains("1.2 kg"))
    }

    @Test("A problem inside an archive names the archive and the file in it, with its line")
    func problemInside() throws {
        let site = try site(with: "good.zip")
        // The same archive with a broken machine.yaml: rebuild it from the folder with Python's zipfile.
        let script = """
        import zipfile, sys
        src = zipfile.ZipFile(sys.argv[1]); out = zipfile.ZipFile(sys.argv[2], "w")
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "box/machine.yaml": data = b"name: Box\\nsummary: [unclosed\\n"
            out.writestr(info, data)
        out.close()
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, Fixtures.root + "/archives/good.zip", site + "/content/machines/box.zip"]
        try process.run()
        process.waitUntilExit()
        let (_, diagnostics) = load(site)
        let error = try #require(diagnostics.first { $0.severity == .error })
        #expect(error.location.path == "content/machines/box.zip/machine.yaml")
        #expect(error.location.line >= 2)
    }

    @Test("Hostile archives are refused, naming the archive and the entry, and nothing is written outside the cache",
          arguments: [
              ("slip.zip", "box/../../escaped.txt", "leaves the bundle"),
              ("absolute.zip", "/tmp/teardown-absolute.txt", "is an absolute path"),
              ("symlink.zip", "box/parts/lid/passwd", "is a symbolic link"),
              ("bomb.zip", "box/padding.bin", "takes the unpacked bundle over 10000000 bytes"),
              // The archive claims 100 bytes; the limit holds for what really comes out.
              ("liar.zip", "box/padding.bin", "takes the unpacked bundle over 10000000 bytes"),
          ])
    func hostile(archive: String, entry: String, reason: String) throws {
        let site = try site(with: archive, limit: 10_000_000)
        let (content, diagnostics) = load(site)
        #expect(content.machines.isEmpty)
        let error = try #require(diagnostics.first { $0.severity == .error }, "\(diagnostics)")
        #expect(error.location.path == "content/machines/box.zip")
        #expect(error.description.contains("entry '\(entry)' \(reason)"), "\(error)")
        #expect(error.description.contains("the archive is not read"))
        let scratch = (site as NSString).deletingLastPathComponent
        for path in [scratch + "/escaped.txt", site + "/escaped.txt", site + "/content/escaped.txt", "/tmp/teardown-absolute.txt"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) was written")
        }
        // No half-unpacked bundle is left for a later build to pick up.
        let cache = (try? FileManager.default.contentsOfDirectory(atPath: site + "/.teardown-cache/bundles")) ?? []
        #expect(cache == [])
        // And a build stops with that error, leaving no output.
        let output = scratch + "/public"
        #expect(throws: BuildFailure.self) {
            try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        }
        #expect(!FileManager.default.fileExists(atPath: output + "/index.html"))
    }

    @Test("A machine that is both a folder and a .zip is an error at the archive")
    func both() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        try FileManager.default.copyItem(atPath: Fixtures.root + "/archives/good.zip", toPath: site + "/content/machines/box.zip")
        let (_, diagnostics) = load(site)
        #expect(diagnostics.map(\.description) == [
            "content/machines/box.zip:1:1: error: machine 'box' is both a folder and box.zip; keep one of them",
        ])
    }

    @Test("Sync files nothing into an archive: a submission for it is quarantined with the reason")
    func syncLeavesArchives() throws {
        let site = try site(with: "good.zip")
        let inbox = (site as NSString).deletingLastPathComponent + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        try "---\nmachine: box\npart: lid\nauthor: Ann\ndate: 2024-06-01\n---\nNice lid.\n"
            .write(toFile: inbox + "/c1.comment.md", atomically: true, encoding: .utf8)
        let report = try Syncer(siteRoot: site, source: Inbox.source(inbox, scratch: inbox + ".downloads")).run(dryRun: false)
        #expect(report.count(.accept) == 0 && report.count(.reject) == 1)
        let reason = Fixtures.read(site + "/content/.quarantine/c1.reason")
        #expect(reason.contains("published from content/machines/box.zip, which sync does not change"), "\(reason)")
        #expect(FileManager.default.contentsEqual(atPath: site + "/content/machines/box.zip", andPath: Fixtures.root + "/archives/good.zip"))
    }
}
