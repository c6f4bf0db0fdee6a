import Foundation
import Testing

/// SIGKILL at random moments: the published site and the content stay whole, and the next
/// run finishes the job.
@Suite("Killed builds and syncs", .serialized)
struct KillTests {
    static func copyDemo() throws -> URL {
        let site = TeardownBinary.temporaryFolder()
        try FileManager.default.copyItem(at: TeardownBinary.packageRoot.appendingPathComponent("content"),
                                         to: site.appendingPathComponent("content"))
        return site
    }

    /// The kill delays come from a seeded generator, and the seed is printed, so that a failure
    /// replays: `TEARDOWN_KILL_SEED=<seed> swift test --filter KillTests`.
    struct Delays: RandomNumberGenerator {
        let seed: UInt64
        private var state: UInt64

        init(_ test: String) {
            seed = ProcessInfo.processInfo.environment["TEARDOWN_KILL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
            state = seed
            print("\(test): kill delays from TEARDOWN_KILL_SEED=\(seed)")
        }

        // SplitMix64: small, and the same sequence on every machine for a seed.
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Starts the command and kills it after a random delay; returns whether it was still running.
    @discardableResult
    static func runAndKill(_ arguments: [String], within microseconds: UInt32, delays: inout Delays) throws -> Bool {
        let process = Process()
        process.executableURL = TeardownBinary.url
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(UInt32.random(in: 0...microseconds, using: &delays))
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return wasRunning
    }

    /// Every file of a built site but the search index, whose file names Pagefind derives from
    /// an order it does not keep the same from run to run.
    static func snapshot(_ root: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if path.hasPrefix("pagefind/") { continue }
            files[path] = try? Data(contentsOf: url)
        }
        // The search page names the index's files, whose names depend on the order Pagefind
        // read pages in: they are left out with the index (indexIsWhole checks the index).
        if let page = files["search/index.html"] {
            let named = String(decoding: page, as: UTF8.self).replacing(
                /\?ts=[0-9a-f]+|pagefind\.[A-Za-z0-9_-]+\.pf_meta|data-cache-tag="[0-9a-f]+"|<meta name="teardown-chunks"[^>]*>/, with: "(index)")
            files["search/index.html"] = Data(named.utf8)
        }
        return files
    }

    /// The search index is whole: its entry file names a metadata file that exists, beside the script.
    static func indexIsWhole(_ root: URL) -> Bool {
        let folder = root.appendingPathComponent("pagefind")
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("pagefind-entry.json")),
              let entry = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let languages = entry["languages"] as? [String: [String: Any]], !languages.isEmpty
        else { return false }
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("pagefind.js").path)
            && languages.values.allSatisfy { language in
                (language["hash"] as? String).map {
                    FileManager.default.fileExists(atPath: folder.appendingPathComponent("pagefind.\($0).pf_meta").path)
                } ?? false
            }
    }

    @Test("A build killed at any moment leaves the previous site whole; the next build completes")
    func killedBuilds() throws {
        let site = try Self.copyDemo()
        let public_ = site.appendingPathComponent("public")
        #expect(try TeardownBinary.run(["build", "--site", site.path]).status == 0)
        let files = Set(Self.snapshot(public_).keys)
        let description = site.appendingPathComponent("content/machines/desk-fan/description.md")
        let original = try String(contentsOf: description, encoding: .utf8)
        var delays = Delays("killed builds")
        var killedWhileRunning = 0
        // The edition the published page showed last: a killed build leaves the page as the
        // last whole build made it, never older and never a mix.
        var shown = 0
        for edition in 1...15 {
            try (original + "\nEdition \(edition)\n").write(to: description, atomically: true, encoding: .utf8)
            if try Self.runAndKill(["build", "--site", site.path], within: 150_000, delays: &delays) { killedWhileRunning += 1 }
            let now = Self.snapshot(public_)
            #expect(Set(now.keys) == files, "edition \(edition): the same files, none missing or extra")
            #expect(Self.indexIsWhole(public_), "edition \(edition): the search index is whole")
            for (path, data) in now where path.hasSuffix(".html") {
                #expect(String(decoding: data, as: UTF8.self).hasSuffix("</html>\n"), "\(path) is complete")
            }
            let page = String(decoding: now["machines/desk-fan/index.html"] ?? Data(), as: UTF8.self)
            #expect(page.contains("Desk fan"))
            let editions = page.matches(of: /Edition (\d+)/).compactMap { Int($0.output.1) }
            #expect(editions.count <= 1, "edition \(edition): one edition on the page, not a mix: \(editions)")
            let now_ = editions.first ?? 0
            #expect(now_ >= shown && now_ <= edition, "edition \(edition): the page shows edition \(now_) after \(shown)")
            shown = now_
        }
        #expect(killedWhileRunning > 0, "at least some kills hit a running build")
        #expect(try TeardownBinary.run(["build", "--site", site.path]).status == 0)
        let reference = site.appendingPathComponent("reference")
        #expect(try TeardownBinary.run(["build", "--site", site.path, "--output", reference.path, "--full"]).status == 0)
        #expect(Self.snapshot(public_) == Self.snapshot(reference))
        #expect(String(decoding: Self.snapshot(public_)["machines/desk-fan/index.html"]!, as: UTF8.self).contains("Edition 15"))
    }

    @Test("A sync killed at any moment leaves whole files; the next sync completes, equal to an unkilled one")
    func killedSyncs() throws {
        let site = try Self.copyDemo()
        let calm = try Self.copyDemo()
        let inbox = site.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let parts = ["blades", "motor", "switch", "stand", "base"]
        for index in 0..<20 {
            let text = "---\nmachine: desk-fan\npart: \(parts[index % parts.count])\nauthor: K\(index)\ndate: 2025-04-\(10 + index)\n---\nKill-proof remark \(index).\n"
            try text.write(to: inbox.appendingPathComponent("k\(index).comment.md"), atomically: true, encoding: .utf8)
        }
        try "target: k3\nreason: test\n".write(to: inbox.appendingPathComponent("t1.takedown.yaml"), atomically: true, encoding: .utf8)
        #expect(try TeardownBinary.run(["build", "--site", site.path]).status == 0)
        var delays = Delays("killed syncs")
        for _ in 0..<10 {
            try Self.runAndKill(["sync", "--site", site.path, "--from", inbox.path], within: 200_000, delays: &delays)
            // A write killed mid-way leaves its hidden temporary (`.<name>.teardown-tmp-<pid>`), which the
            // loader skips and the next write into its folder removes (the snapshots compared at
            // the end hold none); the comments themselves are whole or absent.
            for (path, data) in Self.snapshot(site.appendingPathComponent("content"))
            where path.contains("/comments/") && !(path as NSString).lastPathComponent.hasPrefix(".") {
                #expect(String(decoding: data, as: UTF8.self).hasSuffix("\n"), "\(path) is whole")
            }
            #expect(try TeardownBinary.run(["check", "--site", site.path]).status == 0, "the content still loads")
        }
        let final = try TeardownBinary.run(["sync", "--site", site.path, "--from", inbox.path])
        #expect(final.status == 0, "\(final.stderr)")
        #expect(try TeardownBinary.run(["sync", "--site", calm.path, "--from", inbox.path]).status == 0)
        #expect(Self.snapshot(site.appendingPathComponent("content")) == Self.snapshot(calm.appendingPathComponent("content")))
        let published = Self.snapshot(site.appendingPathComponent("public"))
        let calmly = Self.snapshot(calm.appendingPathComponent("public"))
        #expect(published == calmly,
                "differs: \(Set(published.keys).union(calmly.keys).filter { published[$0] != calmly[$0] }.sorted())")
    }
}
