import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

@Suite("Search with Pagefind")
struct SearchIndexTests {
    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test("The build indexes the site, and re-indexes only when an indexed page changed")
    func incrementalIndex() throws {
        let site = Fixtures.copy(Fixtures.site("manual"))
        let output = site + "/public"
        let first = try SiteBuilder(siteRoot: site).build()
        #expect(!first.warnings.contains { $0.description.contains("search is unavailable") })
        let entry = output + "/pagefind/pagefind-entry.json"
        #expect(TextFile.exists(output + "/pagefind/pagefind.js"))
        let search = Fixtures.read(output + "/search/index.html")
        #expect(search.contains("data-index=\"../pagefind/pagefind.js\""))
        #expect(!search.contains("data-merge"), "a small site has one index")
        #expect(search.contains("<script src=\"../assets/search.js\" defer></script>"))
        #expect(Fixtures.read(output + "/index.html").contains("<form class=\"site-search\" role=\"search\" action=\"search/\">"))
        let indexed = try #require(Self.inode(entry))

        // The 404 page is not indexed: the index is carried over, not made again.
        let theme = site + "/Themes/default/templates"
        try FileManager.default.createDirectory(atPath: theme, withIntermediateDirectories: true)
        try "{{<base}}{{$main}}<p>Lost in the manual.</p>{{/main}}{{/base}}\n"
            .write(toFile: theme + "/not-found.mustache", atomically: true, encoding: .utf8)
        let second = try SiteBuilder(siteRoot: site).build()
        #expect(second.written == 1)
        #expect(Self.inode(entry) == indexed, "the same index files, linked from the previous site")

        // A manual page changed: the index is made again, and holds the new word.
        try "# Glossary\n\n## Terms\n\nA quixotic flange.\n".write(toFile: site + "/content/manual/glossary.md", atomically: true,
                                                                    encoding: .utf8)
        try SiteBuilder(siteRoot: site).build()
        #expect(Self.inode(entry) != indexed)
        #expect(TextFile.exists(output + "/pagefind/pagefind.js"))
    }

    @Test("A folder of a shard's pages that a killed build left beside the site is cleared by the next build")
    func leftoverPagesCleared() throws {
        let site = Fixtures.copy(Fixtures.site("manual"))
        let output = site + "/public"
        try SiteBuilder(siteRoot: site).build()
        let pages = try Self.pageCount(output + "/pagefind")
        let leftover = site + "/.public.index-pagefind-shard-07"
        try FileManager.default.createDirectory(atPath: leftover + "/manual", withIntermediateDirectories: true)
        try "<p>stale</p>".write(toFile: leftover + "/manual/index.html", atomically: true, encoding: .utf8)
        try "# Glossary\n\nA quixotic flange.\n".write(toFile: site + "/content/manual/glossary.md", atomically: true,
                                                     encoding: .utf8)
        try SiteBuilder(siteRoot: site).build()
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(try Self.pageCount(output + "/pagefind") == pages, "the same pages, indexed again")
    }

    /// The number of pages a Pagefind bundle holds, from its entry file.
    static func pageCount(_ bundle: String) throws -> Int {
        let entry = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle + "/pagefind-entry.json")))
        let languages = try #require((entry as? [String: Any])?["languages"] as? [String: [String: Any]])
        return languages.values.reduce(0) { $0 + (($1["page_count"] as? Int) ?? 0) }
    }

    @Test("A build tells its caller how far rendering and indexing have got, and an unchanged page is not counted")
    func progress() throws {
        let site = Fixtures.copy(Fixtures.site("manual"))
        let events = Locked<[BuildProgress]>([])
        let report = try SiteBuilder(siteRoot: site).build { progress in events.withLock { $0.append(progress) } }
        let pages = events.withLock { $0 }.filter { $0.stage == .pages }
        #expect(pages.first?.done == 0 && pages.first?.total == report.pages)
        #expect(pages.map(\.done).sorted() == Array(0...report.pages), "one step a page")
        let search = events.withLock { $0 }.filter { $0.stage == .search }
        #expect(search.map(\.done) == [0, 1] && search.allSatisfy { $0.total == 1 }, "one index, done once")

        try "# Glossary\n\nA quixotic flange.\n".write(toFile: site + "/content/manual/glossary.md", atomically: true, encoding: .utf8)
        events.withLock { $0 = [] }
        let second = try SiteBuilder(siteRoot: site).build { progress in events.withLock { $0.append(progress) } }
        let rendered = events.withLock { $0 }.filter { $0.stage == .pages }
        #expect(rendered.last.map { $0.total > 0 && $0.total < report.pages && $0.done == $0.total } == true,
                "only the pages rendered again: \(rendered.last.map { "\($0.done)/\($0.total)" } ?? "none") of \(second.pages)")
    }

    @Test("A sharded index holds every indexed page once, and a change re-indexes only the shard holding it")
    func shards() throws {
        let site = Fixtures.temporaryFolder()
        try FileManager.default.copyItem(atPath: Fixtures.demoSite + "/content", toPath: site + "/content")
        let settings = site + "/content/site.yaml"
        let yaml = Fixtures.read(settings)
        try (yaml + "search_shards: 1\n").write(toFile: settings, atomically: true, encoding: .utf8)
        try SiteBuilder(siteRoot: site).build()
        let whole = try Self.pageCount(site + "/public/pagefind")

        // Without a recent shard (`search_recent: 0`), a changed page's shard is indexed again at once.
        try (yaml + "search_shards: 8\nsearch_recent: 0\n").write(toFile: settings, atomically: true, encoding: .utf8)
        try SiteBuilder(siteRoot: site).build()
        let output = site + "/public"
        #expect(!TextFile.exists(output + "/pagefind/pagefind.js"), "the single index's files are gone")
        let folders = try FileManager.default.contentsOfDirectory(atPath: output + "/pagefind").sorted()
        #expect(folders.count >= 2 && folders.allSatisfy { $0.hasPrefix("shard-") }, "\(folders)")
        let counts = try folders.map { try Self.pageCount(output + "/pagefind/" + $0) }
        #expect(counts.reduce(0, +) == whole, "every page in exactly one shard: \(counts) against \(whole)")

        // The search page loads the first shard and merges the others.
        let search = Fixtures.read(output + "/search/index.html")
        let first = folders[0]
        #expect(search.contains("data-index=\"../pagefind/\(first)/pagefind.js\""))
        let merged = folders.filter { $0 != first }.map { "../pagefind/\($0)/" }
        let listed = try #require(search.firstMatch(of: /data-merge="([^"]*)"/)).1.split(separator: " ").map(String.init)
        #expect(listed.sorted() == merged.sorted())

        // A comment on the kettle: only the kettle's shard is made again.
        let entries = Dictionary(uniqueKeysWithValues: folders.map { ($0, Self.inode(output + "/pagefind/\($0)/pagefind-entry.json")) })
        try "---\nauthor: Ada\ndate: 2026-11-01\n---\nThe quixotic lid hinge squeaks.\n"
            .write(toFile: site + "/content/machines/electric-kettle/comments/2026-11-01-ada.md", atomically: true, encoding: .utf8)
        try SiteBuilder(siteRoot: site).build()
        let changed = folders.filter { Self.inode(output + "/pagefind/\($0)/pagefind-entry.json") != entries[$0]! }
        #expect(changed.count == 1, "\(changed)")
    }

    /// The tag and the files the search page asks for early, relative to the page.
    static func preloads(_ page: String) throws -> (tag: String, files: [String]) {
        let tag = try #require(page.firstMatch(of: /data-cache-tag="([0-9a-f]+)"/)).1
        let files = try #require(page.firstMatch(of: /<meta name="teardown-index-files" content="([^"]*)">/)).1
            .split(separator: " ").map(String.init).filter { !$0.hasSuffix("pagefind-worker.js") }
        return (String(tag), files)
    }

    @Test("The search page names the first shard's entry, metadata and WebAssembly, tagged with the entry's digest, and is rewritten only when that shard is indexed again")
    func preloadedIndex() throws {
        let site = Fixtures.temporaryFolder()
        try FileManager.default.copyItem(atPath: Fixtures.demoSite + "/content", toPath: site + "/content")
        let settings = site + "/content/site.yaml"
        try (Fixtures.read(settings) + "search_shards: 8\nsearch_recent: 0\n").write(toFile: settings, atomically: true, encoding: .utf8)
        try SiteBuilder(siteRoot: site).build()
        let output = site + "/public", searchPage = output + "/search/index.html"
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: output + "/pagefind").sorted().first)
        func check() throws {
            let page = Fixtures.read(searchPage)
            let (tag, files) = try Self.preloads(page)
            let entry = try Data(contentsOf: URL(fileURLWithPath: output + "/pagefind/\(folder)/pagefind-entry.json"))
            #expect(tag == String(SHA256Hex.of(entry).prefix(16)), "the tag is the first shard's entry's digest")
            #expect(files.count == 3 && files[0] == "../pagefind/\(folder)/pagefind-entry.json?ts=\(tag)")
            for file in files {
                let name = file.split(separator: "?")[0].replacingOccurrences(of: "../", with: "")
                #expect(TextFile.exists(output + "/" + name), "\(file) is a file of the first shard")
            }
            #expect(files.contains { $0.hasSuffix(".pf_meta") } && files.contains { $0.hasSuffix(".pagefind") })
            // The index chunks as Pagefind's metadata lists them: each a file of the shard, in
            // order, each word range within itself and after the one before.
            let table = try #require(page.firstMatch(of: /<meta name="teardown-chunks" content="([^"]*)" data-folder="([^"]*)">/))
            #expect(table.2 == "../pagefind/\(folder)/index/")
            let json = [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")]
                .reduce(String(table.1)) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
            let chunks = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]])
            #expect(!chunks.isEmpty)
            for (number, chunk) in chunks.enumerated() {
                #expect(chunk.count == 3 && chunk[0] <= chunk[1])
                #expect(TextFile.exists(output + "/pagefind/\(folder)/index/\(chunk[2]).pf_index"), "\(chunk[2]) is a chunk of the shard")
                if number > 0 { #expect(chunks[number - 1][1] < chunk[0]) }
            }
        }
        try check()

        // A comment on each machine in turn, then a manual page: the page is rewritten when,
        // and only when, the first shard is indexed again, and always names its current files.
        var rewrittenWithFirst = 0
        let machines = try FileManager.default.contentsOfDirectory(atPath: site + "/content/machines").sorted()
        for machine in machines + ["the manual"] {
            let page = Self.inode(searchPage)
            let entry = Self.inode(output + "/pagefind/\(folder)/pagefind-entry.json")
            if machine == "the manual" {
                let manual = site + "/content/manual/bundles.md"
                try (Fixtures.read(manual) + "\nA quixotic flange.\n").write(toFile: manual, atomically: true, encoding: .utf8)
            } else {
                let comments = site + "/content/machines/\(machine)/comments"
                try FileManager.default.createDirectory(atPath: comments, withIntermediateDirectories: true)
                try "---\nauthor: Ada\ndate: 2026-11-01\n---\nA quixotic remark on \(machine).\n"
                    .write(toFile: comments + "/2026-11-01-ada.md", atomically: true, encoding: .utf8)
            }
            try SiteBuilder(siteRoot: site).build()
            let firstIndexed = Self.inode(output + "/pagefind/\(folder)/pagefind-entry.json") != entry
            #expect((Self.inode(searchPage) != page) == firstIndexed, "\(machine): the search page follows the first shard")
            if firstIndexed { rewrittenWithFirst += 1 }
            try check()
        }
        #expect(rewrittenWithFirst > 0, "some machine is in the first shard")
    }

    @Test("Without Pagefind the build warns once, and the search page says search is unavailable")
    func unavailable() throws {
        let site = Fixtures.copy(Fixtures.site("manual"))
        let report = try SiteBuilder(siteRoot: site, pagefind: .notInstalled).build()
        let warnings = report.warnings.map(\.description).filter { $0.contains("search") }
        #expect(warnings == ["content/site.yaml:1:1: warning: search is unavailable: Pagefind is not installed; "
            + "the search page says so (set 'search: false' to turn search off)"])
        let search = Fixtures.read(site + "/public/search/index.html")
        #expect(search.contains("Search is unavailable: this site was built without a search index."))
        #expect(!search.contains("search.js"), "no script that would fail")
        #expect(!Fixtures.read(site + "/public/index.html").contains("site-search"), "no search box leading nowhere")
        #expect(!TextFile.exists(site + "/public/pagefind"))
    }

    @Test("Pages carry Pagefind's body and filters: manual, machine, part and comment, and the machine's name")
    func filters() throws {
        let site = Fixtures.temporaryFolder()
        try FileManager.default.copyItem(atPath: Fixtures.demoSite + "/content", toPath: site + "/content")
        try SiteBuilder(siteRoot: site, pagefind: .notInstalled).build()
        let motor = Fixtures.read(site + "/public/machines/desk-fan/parts/motor/index.html")
        #expect(motor.contains("<meta name=\"pagefind-type\" data-pagefind-filter=\"type[content]\" content=\"part\">"))
        #expect(motor.contains("<meta name=\"pagefind-type\" data-pagefind-filter=\"type[content]\" content=\"comment\">"))
        #expect(motor.contains("<meta name=\"pagefind-machine\" data-pagefind-filter=\"machine[content]\" content=\"Desk fan\">"))
        #expect(motor.contains("<div data-pagefind-body>"))
        let manual = Fixtures.read(site + "/public/manual/bundles/index.html")
        #expect(manual.contains("<meta name=\"pagefind-type\" data-pagefind-filter=\"type[content]\" content=\"manual\">"))
        #expect(manual.contains("<article class=\"manual-page\" data-pagefind-body>"))
        #expect(!Fixtures.read(site + "/public/photos/index.html").contains("data-pagefind-body"), "galleries are not indexed")
    }
}
