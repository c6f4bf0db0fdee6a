import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

@Suite("Skipping a build when no input changed")
struct InputSnapshotTests {
    private let key = ContentDigest(of: "settings")

    /// A site copy with its snapshot taken and stored; `window` 0 trusts timestamps alone,
    /// which is what a build does for files older than the racy window.
    private func stored(window: Double = 0) throws -> (site: String, path: String, roots: [String]) {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let roots = [site + "/content", site + "/Themes"]
        let snapshot = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: window))
        let path = site + "/inputs"
        let record = InputSnapshot.Record(tree: "tree", pages: 4, files: 2, warnings: [])
        try snapshot.serialized(record).write(to: URL(fileURLWithPath: path))
        return (site, path, roots)
    }

    @Test("Untouched inputs are recognised, with the stored counts")
    func untouched() throws {
        let (_, path, roots) = try stored()
        let record = try #require(InputSnapshot.unchanged(at: path, roots: roots, key: key))
        #expect(record.pages == 4 && record.files == 2 && record.tree == "tree")
    }

    @Test("The check names what differs, and the stored snapshot updated at those paths equals a new walk")
    func changedPaths() throws {
        let (site, path, roots) = try stored()
        let lid = site + "/content/machines/box/parts/lid"
        try "Edited, and longer than before.\n".write(toFile: lid + "/description.md", atomically: false, encoding: .utf8)
        try "---\nauthor: Ada\ndate: 2024-05-02\n---\nNew.\n".write(toFile: lid + "/comments/new.md", atomically: false,
                                                                        encoding: .utf8)
        try FileManager.default.removeItem(atPath: lid + "/comments/hello.md")
        guard case .changed(let paths, let stored)? = InputSnapshot.check(at: path, roots: roots, key: key, racyWindow: 0) else {
            Issue.record("the check did not report a change")
            return
        }
        // The edited file, the removed one, and the folder whose entries changed, through which the new file shows.
        let expected: Set<String> = [lid + "/description.md", lid + "/comments", lid + "/comments/hello.md"]
        #expect(Set(paths) == expected)
        let (read, _) = try #require(InputSnapshot.stored(at: path, roots: roots, key: key))
        #expect(stored.sameEntries(as: read), "the check hands back the snapshot it read")
        let updated = try #require(stored.updating(paths, racyWindow: 0))
        let walked = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: 0))
        #expect(updated.sameEntries(as: walked))
        #expect(updated.bundleSignatures().all == walked.bundleSignatures().all)
        Self.expectIndexOfLines(updated)
    }

    @Test("Thousands of changed paths, folders among them, update the stored snapshot to what a walk sees")
    func manyChangedPaths() throws {
        let (site, path, roots) = try stored()
        let machines = site + "/content/machines"
        for number in 0..<40 {
            let folder = machines + "/extra-\(number)/parts"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for file in 0..<50 { try "\(file)\n".write(toFile: folder + "/f\(file).txt", atomically: false, encoding: .utf8) }
        }
        let walked = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: 0))
        var paths = [machines]
        for number in 0..<40 {
            paths.append(machines + "/extra-\(number)")
            paths.append(machines + "/extra-\(number)/parts")
            for file in 0..<50 { paths.append(machines + "/extra-\(number)/parts/f\(file).txt") }
        }
        let (stored, _) = try #require(InputSnapshot.stored(at: path, roots: roots, key: key))
        let updated = try #require(stored.updating(paths, racyWindow: 0))
        #expect(updated.sameEntries(as: walked))
        Self.expectIndexOfLines(updated)
    }

    /// A one-comment sync's update of a large catalog's snapshot: the bundles it does not touch
    /// keep their lines where they were read, and a resident publisher's snapshot, updated
    /// round after round, does not come to lie in ever more arrays.
    @Test("An update writes anew only the lines of the bundles it touches")
    func updateSharesUntouchedBundles() throws {
        let (site, path, roots) = try stored()
        let machines = site + "/content/machines"
        for number in 0..<40 { try FileManager.default.copyItem(atPath: machines + "/box", toPath: machines + "/copy-\(number)") }
        let taken = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: 0))
        let record = InputSnapshot.Record(tree: "tree", pages: 4, files: 2, warnings: [])
        try taken.serialized(record).write(to: URL(fileURLWithPath: path))
        var (snapshot, _) = try #require(InputSnapshot.stored(at: path, roots: roots, key: key))
        let read = snapshot.lines
        func address(_ bytes: [UInt8]) -> UInt { bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        for round in 0..<40 {
            let comments = machines + "/copy-\(round)/parts/lid/comments"
            try "---\nauthor: Ada\ndate: 2024-05-02\n---\nRound \(round).\n".write(
                toFile: comments + "/round-\(round).md", atomically: false, encoding: .utf8)
            snapshot = try #require(snapshot.updating([comments + "/round-\(round).md"], racyWindow: 0))
            if round == 0 {
                let pieces = snapshot.storage.pieces
                let shared = pieces.filter { address($0.bytes) == address(read) }
                #expect(Set(shared.compactMap(\.run.bundle)) == Set(["box"] + (1..<40).map { "copy-\($0)" }),
                        "every bundle but the one touched keeps its lines where they were read")
                let written = pieces.filter { address($0.bytes) != address(read) }.map(\.run.range.count).reduce(0, +)
                #expect(written * 10 < read.count, "the touched bundle and the lines of no bundle are written: \(written) bytes")
            }
            // Each round touches another bundle: its written array lives on with it.
            #expect(snapshot.storage.bufferCount <= 33)
        }
        Self.expectIndexOfLines(snapshot)
        let walked = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: 0))
        #expect(snapshot.sameEntries(as: walked))
        #expect(snapshot.bundleSignatures().all == walked.bundleSignatures().all)
    }

    /// The pieces an update made as it kept the lines (`SnapshotUpdate.kept`) file every line
    /// under the bundle, and with the racy flag, a look along the lines laid end to end gives.
    static func expectIndexOfLines(_ snapshot: InputSnapshot) {
        let pieces = snapshot.storage.pieces
        let lines = snapshot.lines
        let scanned = SnapshotLineIndex(lines)
        var held: [String: [UInt8]] = [:], found: [String: [UInt8]] = [:]
        for piece in pieces { held[piece.run.bundle ?? "", default: []] += piece.lines }
        for run in scanned.runs { found[run.bundle ?? "", default: []] += lines[run.range] }
        #expect(held == found)
        #expect(Set(pieces.filter(\.run.racy).map { $0.run.bundle ?? "" }) == Set(scanned.runs.filter(\.racy).map { $0.bundle ?? "" }))
        #expect(pieces.map(\.run.range.count).reduce(0, +) == lines.count)
    }

    @Test("An edit that keeps the file's size and modification time is still seen")
    func sameSizeSameTime() throws {
        let (site, path, roots) = try stored()
        let file = site + "/content/machines/box/parts/lid/description.md"
        let before = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as! Date
        let text = Fixtures.read(file)
        try String(text.reversed()).write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: file)
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key) == nil)
    }

    @Test("A new file, a removed file and a new folder are seen without listing folders again")
    func addedAndRemoved() throws {
        let (site, path, roots) = try stored()
        try "---\nauthor: Ada\ndate: 2024-01-01\n---\nNew.\n".write(
            toFile: site + "/content/machines/box/parts/lid/comments/zz.md", atomically: false, encoding: .utf8)
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key) == nil)

        let (site2, path2, roots2) = try stored()
        try FileManager.default.removeItem(atPath: site2 + "/content/machines/box/description.md")
        #expect(InputSnapshot.unchanged(at: path2, roots: roots2, key: key) == nil)

        let (site3, path3, roots3) = try stored()
        try FileManager.default.createDirectory(atPath: site3 + "/Themes/default/templates/extra", withIntermediateDirectories: true)
        #expect(InputSnapshot.unchanged(at: path3, roots: roots3, key: key) == nil)
    }

    @Test("Other settings, other roots or a snapshot cut short are not trusted")
    func doubts() throws {
        let (_, path, roots) = try stored()
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: ContentDigest(of: "other")) == nil)
        #expect(InputSnapshot.unchanged(at: path, roots: Array(roots.prefix(1)), key: key) == nil)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // Cut after a whole line in the middle of the entries: every remaining line would still verify.
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix(lines.count - 4).joined(separator: "\n") + "\n"
        try Data(cut.utf8).write(to: URL(fileURLWithPath: path))
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key) == nil)
    }

    @Test("A file changed just before the snapshot is checked by content, so a same-second edit is seen")
    func racyEntries() throws {
        let (site, path, roots) = try stored(window: 3600)
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key) != nil)
        let stored = Fixtures.read(path)
        #expect(stored.contains(" 0/machines/box/parts/lid/description.md"))
        #expect(stored.split(separator: "\n").contains { $0.hasSuffix(" 0/machines/box/parts/lid/description.md") && $0.split(separator: " ").count == 3 },
                "racy entries carry a content digest")
        let file = site + "/content/machines/box/parts/lid/description.md"
        let text = Fixtures.read(file)
        try String(text.reversed()).write(toFile: file, atomically: false, encoding: .utf8)
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key) == nil)
    }

    @Test("Racy entries that have left the window are stored again without their content, and still vouched for")
    func settledEntries() throws {
        let (site, path, roots) = try stored(window: 3600)
        func digests() -> Int {
            let entries = Fixtures.read(path).components(separatedBy: "\nentries\n")[1].split(separator: "\n").dropLast()
            return entries.filter { $0.split(separator: " ").count == 3 }.count
        }
        #expect(digests() > 0)
        // Still inside the window: checked by content, and kept so.
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key, racyWindow: 3600) != nil)
        #expect(digests() > 0)
        // Past it: the check passes and the digests are gone, so later checks only stat.
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key, racyWindow: 0) != nil)
        #expect(digests() == 0)
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key, racyWindow: 0) != nil)
        // An edit is still seen by its signature.
        try "---\nauthor: Ada\ndate: 2024-01-01\n---\nNew.\n".write(
            toFile: site + "/content/machines/box/parts/lid/comments/zz.md", atomically: false, encoding: .utf8)
        #expect(InputSnapshot.unchanged(at: path, roots: roots, key: key, racyWindow: 0) == nil)

        // Known changes settle the entries they did not touch, too.
        let fresh = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: 3600))
        #expect(fresh.entries.contains { $0.content != nil })
        let updated = try #require(fresh.updating([site + "/content/machines/box/parts/lid/comments/zz.md"], racyWindow: 0))
        #expect(!updated.entries.contains { $0.content != nil })
    }

    @Test("Known changes give the entries and bundle signatures a new walk gives, and carried signatures equal computed ones",
          arguments: [0.0, 3600.0])
    func updatedSignatures(window: Double) throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let machines = site + "/content/machines"
        let roots = [site + "/content", site + "/Themes"]
        try FileManager.default.copyItem(atPath: machines + "/box", toPath: machines + "/crate")
        let before = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: window))
        #expect(before.signatures?.all.keys.sorted() == ["box", "crate"])

        let comment = machines + "/box/parts/lid/comments/new.md"
        try Data("---\nauthor: Ada\ndate: 2024-05-01\n---\nNew.\n".utf8).write(to: URL(fileURLWithPath: comment))
        try FileManager.default.removeItem(atPath: machines + "/crate")
        try FileManager.default.copyItem(atPath: machines + "/box", toPath: machines + "/drum")
        try Data("zip".utf8).write(to: URL(fileURLWithPath: machines + "/kit.zip"))
        // site.yaml is in no bundle: the bundles' signatures are carried over all the same.
        let settings = site + "/content/site.yaml"
        try (String(contentsOfFile: settings, encoding: .utf8) + "\n# edited\n").write(toFile: settings, atomically: true, encoding: .utf8)
        let changed = [comment, machines + "/crate", machines + "/drum", machines + "/kit.zip", settings]
        let updated = try #require(before.updating(changed, racyWindow: window))
        let walked = try #require(InputSnapshot.take(roots: roots, key: key, racyWindow: window))

        #expect(updated.sameEntries(as: walked))
        Self.expectIndexOfLines(updated)
        let carried = try #require(updated.signatures)
        #expect(carried.all == walked.signatures?.all)
        #expect(carried.racy == walked.signatures?.racy)
        #expect(carried.all.keys.sorted() == ["box", "drum", "kit.zip"])
        #expect(carried.all["box"] != before.signatures?.all["box"], "the new comment changes its bundle")
        // Worked out from the entries alone, as a snapshot read back from disk does.
        let computed = InputSnapshot(key: key, roots: roots, entries: walked.entries).bundleSignatures()
        #expect(computed.all == carried.all && computed.racy == carried.racy)
    }
}

@Suite("What sync looks at before filing")
struct CurrentInputsTests {
    /// Sync's look at the inputs (`walkInputs`) after a build: the stored snapshot checked
    /// against the disk, with the edits since then, must be what a walk finds, bundle
    /// signatures and racy bundles included; and it must not list the folders again.
    @Test("The stored snapshot checked against the disk equals a walk, edits, new and removed bundles included",
          arguments: [false, true])
    func equalsWalk(settled: Bool) throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let machines = site + "/content/machines"
        try FileManager.default.copyItem(atPath: machines + "/box", toPath: machines + "/crate")
        try FileManager.default.copyItem(atPath: machines + "/box", toPath: machines + "/drum")
        // Settled: past the racy window, as a publisher's catalog is between syncs; otherwise
        // every entry is racy and carries a digest of its content. After each change the site
        // is stamped an hour ahead (racy) or waited on past the window (settled), so that no
        // entry leaves the window between the look and the walk it is compared with: the window
        // is a few milliseconds on most file systems.
        var step = 0.0
        func stamp() throws {
            guard !settled else {
                return Thread.sleep(forTimeInterval: InputSnapshot.racyWindow(for: [site + "/content"]) + 0.1)
            }
            step += 1
            let when = Date(timeIntervalSinceNow: 3600 + step)
            let root = site + "/content"
            let items = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
            for item in items.map({ root + "/" + $0 }) + [root] {
                try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: item)
            }
        }
        try stamp()
        let output = site + "/public"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        try builder.build()
        let roots = builder.inputRoots
        func compare(_ what: String) throws {
            let walksBefore = counts[.inputWalks]
            let current = try #require(builder.walkInputs().snapshot)
            #expect(counts[.inputWalks] == walksBefore, "no walk: \(what)")
            let walked = try #require(InputSnapshot.take(roots: roots, key: current.key))
            #expect(current.sameEntries(as: walked), "\(what)")
            #expect(current.bundleSignatures().all == walked.bundleSignatures().all, "\(what)")
            #expect(current.bundleSignatures().racy == walked.bundleSignatures().racy, "\(what)")
        }
        try compare("nothing changed")
        // A sync of an empty inbox: the build it hands the look to has nothing to do. (Racy
        // entries may settle meanwhile, which the build then stores again.)
        if settled { #expect(builder.walkInputs().unchanged != nil) }
        #expect(try builder.build(inputs: builder.walkInputs(), changed: []).unchanged)
        let lid = machines + "/box/parts/lid"
        try "Edited, and longer than before.\n".write(toFile: lid + "/description.md", atomically: false, encoding: .utf8)
        try "---\nauthor: Ada\ndate: 2024-05-02\n---\nNew.\n".write(toFile: lid + "/comments/new.md", atomically: false,
                                                                        encoding: .utf8)
        try stamp()
        try compare("a description edited and a comment added")
        #expect(builder.walkInputs().unchanged == nil)
        try FileManager.default.removeItem(atPath: machines + "/crate")
        try FileManager.default.copyItem(atPath: machines + "/drum", toPath: machines + "/engine")
        try stamp()
        try compare("a bundle removed and one added")
        try builder.build()
        try compare("built again")
    }

}

extension CurrentInputsTests {
    @Test("Looking at the inputs leaves a damaged build store as it is, for the build to mend and say so")
    func damagedStore() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = site + "/public"
        let cache = output + ".cache"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: cache, pagefind: .notInstalled, counters: counts.counters)
        try builder.build()
        let store = try #require(FileManager.default.enumerator(atPath: cache + "/outputs")?.allObjects
            .compactMap { $0 as? String }.first { $0.hasSuffix("/state.sqlite") }.map { cache + "/outputs/" + $0 })
        let garbage = Data(repeating: 0x5A, count: 8192)
        try BuildStore.remove(store)
        try garbage.write(to: URL(fileURLWithPath: store))
        let walksBefore = counts[.inputWalks]
        let inputs = builder.walkInputs()
        #expect(inputs.snapshot != nil)
        #expect(counts[.inputWalks] == walksBefore + 1, "a walk, with no store to check against")
        #expect(FileManager.default.contents(atPath: store) == garbage, "the store is left as it was")
        let report = try builder.build(inputs: inputs, changed: [])
        #expect(report.notices.contains(BuildStore.Notice.damaged.rawValue))
    }

    /// A sync that files nothing, after entries the last build stored as racy have settled (the
    /// next sync after one that filed a comment, or quarantined one): nothing changed, so the
    /// build must not read the stored snapshot a second time to compare (136 ms and 111 MB at
    /// 10,000 parts), and it stores the settled entries so that the next look trusts them.
    @Test("Entries that only settled since the last build are no change, and are stored settled")
    func settledIsNoChange() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = site + "/public"
        let counts = Counts()
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled,
                                  counters: counts.counters)
        // Stamped seconds ahead, the file stays racy past this build and the walk after it,
        // however narrow the file system's racy window and however loaded the machine.
        let ahead = Date(timeIntervalSinceNow: 4)
        try FileManager.default.setAttributes([.modificationDate: ahead],
                                              ofItemAtPath: site + "/content/machines/box/parts/lid/description.md")
        try builder.build()
        #expect(builder.walkInputs().snapshot?.bundleSignatures().racy.contains("box") == true, "the file stamped ahead is racy")
        Thread.sleep(until: ahead.addingTimeInterval(InputSnapshot.racyWindow(for: builder.inputRoots) + 0.1))
        let inputs = builder.walkInputs()
        #expect(inputs.settled && inputs.unchanged != nil)
        let (readBefore, writtenBefore) = (counts[.snapshotBytesRead], counts[.inputRowsWritten])
        #expect(try builder.build(inputs: inputs, changed: []).unchanged)
        #expect(counts[.snapshotBytesRead] == readBefore, "the stored snapshot is not read again to compare")
        #expect(counts[.inputRowsWritten] > writtenBefore, "the settled bundles are stored again")
        let next = builder.walkInputs()
        #expect(!next.settled && next.unchanged != nil)
        #expect(next.snapshot?.bundleSignatures().racy.isEmpty == true)
    }
}

@Suite("Builds that skip loading")
struct UpToDateBuildTests {
    @Test("A build with nothing changed reports the previous build's pages and warnings")
    func replaysWarnings() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let yaml = site + "/content/machines/box/parts/lid/part.yaml"
        try (Fixtures.read(yaml) + "colour: red\n").write(toFile: yaml, atomically: true, encoding: .utf8)
        let output = site + "/public"
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache")
        let first = try builder.build()
        #expect(first.warnings.count == 1)
        let second = try builder.build()
        #expect(second.unchanged)
        #expect(second.warnings == first.warnings)
        #expect(second.pages == first.pages && second.files == first.files)
    }

    @Test("A published folder replaced by hand is rebuilt, not trusted")
    func replacedOutput() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = site + "/public"
        let builder = SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache")
        try builder.build()
        try FileManager.default.removeItem(atPath: output)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
        let report = try builder.build()
        #expect(!report.unchanged)
        #expect(FileManager.default.fileExists(atPath: output + "/machines/box/parts/lid/index.html"))
    }

    @Test("--full renders everything even when nothing changed")
    func full() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let output = site + "/public"
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache").build()
        let report = try SiteBuilder(siteRoot: site, output: output, full: true, cacheFolder: output + ".cache").build()
        #expect(report.written == report.pages + report.files)
    }
}
