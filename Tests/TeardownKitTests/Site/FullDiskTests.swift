import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownBuild
@testable import TeardownContent
@testable import TeardownInbox

/// A build on a full device, made full for real: a small tmpfs mounted for the test (these
/// tests run as root, as CI does on this kind of machine).
@Suite("A full device", .serialized)
struct FullDiskTests {
    /// A tmpfs of `kilobytes` at a new folder, unmounted by `unmount`.
    private static func mount(kilobytes: Int) throws -> String {
        let folder = Fixtures.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mounting a tmpfs needs root")
        return folder
    }

    private static func unmount(_ folder: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = [folder]
        try? process.run()
        process.waitUntilExit()
    }

    /// Fills `folder`'s device but for `leaving` bytes.
    private static func fill(_ folder: String, leaving: Int) throws {
        var info = statvfs()
        try #require(statvfs(folder, &info) == 0)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        try #require(free > leaving)
        FileManager.default.createFile(atPath: folder + "/filler", contents: Data(count: free - leaving))
    }

    @Test("An output on a full device fails in words, naming the file, and says the unfinished copy beside it takes room")
    func fullOutput() throws {
        let device = try Self.mount(kilobytes: 1024)
        defer { Self.unmount(device) }
        let site = Fixtures.copy(Fixtures.site("photos"))
        try Self.fill(device, leaving: 64 * 1024)
        do {
            try SiteBuilder(siteRoot: site, output: device + "/public", cacheFolder: site + "/.teardown-cache",
                            pagefind: .notInstalled).build()
            Issue.record("the build succeeded on a full device")
        } catch {
            let message = error.diagnostics.map(\.description).joined(separator: "\n")
            #expect(message.contains("No space left on device"), "\(message)")
            #expect(!message.contains("Domain="), "\(message)")
            #expect(message.contains(device + "/.public.spare") && message.contains("kept for the next build"), "\(message)")
        }
        #expect(!FileManager.default.fileExists(atPath: device + "/public/index.html"), "nothing half-published")
    }

    @Test("A cache on a full device fails in words, at the cache and not at the output")
    func fullCache() throws {
        let device = try Self.mount(kilobytes: 2048)
        defer { Self.unmount(device) }
        let site = device + "/site"
        try FileManager.default.copyItem(atPath: Fixtures.site("photos"), toPath: site)
        try Self.fill(device, leaving: 48 * 1024)
        let output = Fixtures.temporaryFolder() + "/public"
        do {
            try SiteBuilder(siteRoot: site, output: output, pagefind: .notInstalled).build()
            Issue.record("the build succeeded with its cache on a full device")
        } catch {
            let diagnostics = error.diagnostics.filter { $0.severity == .error }
            let message = diagnostics.map(\.description).joined(separator: "\n")
            #expect(message.contains("No space left on device") && message.contains("the device is full"), "\(message)")
            #expect(!message.contains("Domain="), "\(message)")
            #expect(diagnostics.allSatisfy { !$0.location.path.hasPrefix(output) }, "\(message)")
        }
    }

    @Test("Images made while the disk fills fail the build and are not kept: with room again, the next build makes them")
    func fullImageCache() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let scratch = (site as NSString).deletingLastPathComponent
        let photos = site + "/content/machines/box/parts/lid/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.site("photos") + "/content/machines/camera/parts/body/photos/workbench.jpg",
                                         toPath: photos + "/workbench.jpg")
        // The image cache's entries on a device of their own, full: the rest of the cache and
        // the output have room, as when the disk fills while the images are being made.
        let device = try Self.mount(kilobytes: 256)
        defer { Self.unmount(device) }
        let cache = scratch + "/cache"
        try FileManager.default.createDirectory(atPath: cache + "/images", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: cache + "/images/entries", withDestinationPath: device)
        try Self.fill(device, leaving: 0)
        let output = scratch + "/public"
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: cache, pagefind: .notInstalled)
        do {
            try builder.build()
            Issue.record("the build succeeded with its image cache on a full device")
        } catch {
            let messages = error.diagnostics.map(\.problem.message)
            #expect(messages.contains { $0.contains("cannot write the site's cache") && $0.contains("No space left on device") },
                    "\(messages)")
            // Each error names the input it was made for: the machine's cover, the layer, the photo.
            #expect(Set(error.diagnostics.map(\.location.path)) == ["content/machines/box", "content/machines/box/parts/lid/lid.svg",
                                                                    "content/machines/box/parts/lid/photos/workbench.jpg"],
                    "\(error.diagnostics.map(\.description))")
        }
        #expect(!FileManager.default.fileExists(atPath: output + "/index.html"), "nothing is published")

        // Room again, and no input changed: the build makes what the full disk stopped.
        try FileManager.default.removeItem(atPath: device + "/filler")
        let report = try builder.build()
        #expect(!report.unchanged)
        let warnings = report.warnings.map(\.problem.message).filter { !$0.contains("Pagefind") }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(FileManager.default.fileExists(atPath: output + "/machines/box/parts/lid/photos/workbench/index.html"))
        // Its layer and the machine's composed cover too: the site is what a build from nothing makes.
        let full = scratch + "/full"
        try SiteBuilder(siteRoot: site, output: full, full: true, cacheFolder: full + ".cache", pagefind: .notInstalled).build()
        #expect(try IncrementalBuildTests.snapshot(output) == IncrementalBuildTests.snapshot(full))
    }

    @Test("A remote inbox whose downloads meet a full disk here is not rejected: nothing is decided, and with room the next sync files it")
    func fullDownloads() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let inbox = (site as NSString).deletingLastPathComponent + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        // A photo of 96 KB where 16 KB are left: the manifest comes down, the photo does not.
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGM4ISf3X07uxH8AECsEBxOnYNoAAAAASUVORK5CYII=")!
        let photo = png + Data(repeating: 0, count: 96 * 1024)
        let details = Data("machine: box\npart: lid\nauthor: Ada\ndate: 2025-03-01\ncaption: \"Sent while the disk was full\"\nfile: p1.png\n".utf8)
        try photo.write(to: URL(fileURLWithPath: inbox + "/p1.png"))
        try details.write(to: URL(fileURLWithPath: inbox + "/p1.photo.yaml"))
        let manifest: [String: Any] = ["version": 1, "submissions": [[
            "id": "p1", "files": ["p1.photo.yaml", "p1.png"],
            "sha256": ["p1.photo.yaml": SHA256Hex.of(details), "p1.png": SHA256Hex.of(photo)]]]]
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: inbox + "/manifest.json"))
        let server = try LocalServer(.http, serving: inbox)
        defer { server.stop() }
        // The downloads folder on a device of its own, nearly full, as `.teardown-cache/sync/downloads` on a full disk.
        let device = try Self.mount(kilobytes: 256)
        defer { Self.unmount(device) }
        try FileManager.default.createDirectory(atPath: device + "/downloads", withIntermediateDirectories: true)
        try Self.fill(device, leaving: 16 * 1024)
        let sync = {
            try Syncer(siteRoot: site, source: Inbox.source("http://\(server.url)/", scratch: device + "/downloads")).run(dryRun: false)
        }
        do {
            let report = try sync()
            Issue.record("the sync decided with its downloads failing: \(report.actions)")
        } catch let failure as InboxFailure {
            #expect(failure.receiving)
            #expect(failure.description.contains("No space left on device"), "\(failure)")
        }
        #expect(server.requests.contains("GET /p1.png"), "the manifest was read and the photo's download begun")
        #expect(!FileManager.default.fileExists(atPath: site + "/content/.quarantine"), "nothing is quarantined")

        try FileManager.default.removeItem(atPath: device + "/filler")
        #expect(try sync().count(.accept) == 1)
        let (content, _) = ContentLoader(siteRoot: site).load()
        #expect(content.machines[0].parts[0].community.photos.map(\.caption) == ["Sent while the disk was full"])
    }
}
