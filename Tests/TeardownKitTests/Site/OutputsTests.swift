import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import ZIPFoundation
@testable import TeardownBase
@testable import TeardownMedia
@testable import TeardownBuild

/// Reads an XML file with Foundation's parser: whether it is well-formed, and its elements as paths.
private struct XMLOutline {
    let paths: [String]
    /// The text of each element, by path, in document order.
    let texts: [String: [String]]
    let rootNamespace: String?
    let wellFormed: Bool
    let error: String

    init(_ path: String) {
        let parser = XMLParser(data: FileManager.default.contents(atPath: path) ?? Data())
        parser.shouldProcessNamespaces = true
        let delegate = Delegate()
        parser.delegate = delegate
        wellFormed = parser.parse()
        error = parser.parserError.map { "\($0)" } ?? ""
        paths = delegate.paths
        texts = delegate.texts
        rootNamespace = delegate.rootNamespace
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var stack: [String] = []
        var paths: [String] = []
        var texts: [String: [String]] = [:]
        var text = ""
        var rootNamespace: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if stack.isEmpty { rootNamespace = namespaceURI }
            stack.append(name)
            paths.append(stack.joined(separator: "/"))
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            texts[stack.joined(separator: "/"), default: []].append(text)
            stack.removeLast()
            text = ""
        }
    }

    func count(_ path: String) -> Int { paths.filter { $0 == path }.count }
}

@Suite("Outputs for apps and the web")
struct OutputsTests {
    private func build(_ site: String, cache: String? = nil) throws -> (output: String, report: SiteBuilder.Report) {
        let output = Fixtures.temporaryFolder() + "/public"
        let report = try SiteBuilder(siteRoot: site, output: output, cacheFolder: cache ?? output + ".cache",
                                     pagefind: .notInstalled).build()
        return (output, report)
    }

    private func zipEntries(_ path: String) throws -> [String: Data] {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        var entries: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            entries[entry.path] = data
        }
        return entries
    }

    @Test("Two builds with separate caches give byte-identical zips, holding the bundle with its photos as published")
    func deterministicDownloads() throws {
        let site = Fixtures.site("photos")
        let first = try build(site).output, second = try build(site).output
        let zip = "/downloads/camera.zip"
        let bytes = try #require(FileManager.default.contents(atPath: first + zip))
        #expect(FileManager.default.contents(atPath: second + zip) == bytes)

        let entries = try zipEntries(first + zip)
        #expect(entries["camera/machine.yaml"] == FileManager.default.contents(atPath: site + "/content/machines/camera/machine.yaml"))
        #expect(entries["camera/parts/body/body.png"] != nil)
        // The published photo, upright and without its location, not the upload with GPS data.
        let published = FileManager.default.contents(atPath: first + "/machines/camera/parts/body/photos/workbench/workbench.jpg")
        #expect(entries["camera/parts/body/photos/workbench.jpg"] == published)
        #expect(entries["camera/parts/body/photos/workbench.jpg"]
            != FileManager.default.contents(atPath: site + "/content/machines/camera/parts/body/photos/workbench.jpg"))
        #expect(entries["camera/parts/body/photos/workbench.yaml"] != nil)
        // Photos the site could not publish are not in the download either.
        #expect(entries["camera/parts/body/photos/corrupted.jpg"] == nil)
        #expect(entries["camera/parts/body/photos/not-an-image.jpg"] == nil)
        #expect(entries.keys.allSatisfy { $0.hasPrefix("camera/") })

        let page = Fixtures.read(first + "/machines/camera/index.html")
        #expect(page.contains("href=\"../../downloads/camera.zip\" download>Download the bundle (ZIP, \(PageRenderer.humanSize(bytes.count)))"))
    }

    @Test("A build into another folder of the same site keeps the archives the first one links: serve's preview beside sync's public/")
    func downloadsSharedByTwoOutputs() throws {
        let site = Fixtures.copy(Fixtures.site("machine-view"))
        let cache = Fixtures.temporaryFolder() + "/cache"
        let first = Fixtures.temporaryFolder() + "/public"
        try SiteBuilder(siteRoot: site, output: first, cacheFolder: cache, pagefind: .notInstalled).build()
        let linked = try FileManager.default.contentsOfDirectory(atPath: cache + "/downloads").filter { $0.hasSuffix(".zip") }
        // The other folder's build sees another comment, so other archives: the first's stay.
        try "---\nauthor: Eve\ndate: 2024-06-01\n---\nSeen by the preview only.\n"
            .write(toFile: site + "/content/machines/press/parts/core/comments/preview.md", atomically: true, encoding: .utf8)
        try SiteBuilder(siteRoot: site, output: Fixtures.temporaryFolder() + "/preview", cacheFolder: cache, pagefind: .notInstalled).build()
        for name in linked { #expect(FileManager.default.fileExists(atPath: cache + "/downloads/" + name), "\(name)") }
    }

    /// Machines are zipped in parallel, and ZIPFoundation turns dates into DOS dates with gmtime(),
    /// whose result the whole process shares: once, one entry of a zip got another machine's date.
    @Test("Every entry of every download carries its own machine's date, however many are zipped at once")
    func downloadDates() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let machines = site + "/content/machines"
        let yaml = try String(contentsOfFile: machines + "/box/machine.yaml", encoding: .utf8)
        for number in 1...24 {
            let folder = machines + "/box\(number)"
            try FileManager.default.copyItem(atPath: machines + "/box", toPath: folder)
            for extra in 1...150 {
                try "Note \(extra).\n".write(toFile: folder + "/note-\(extra).md", atomically: true, encoding: .utf8)
            }
            try (yaml + "updated: 2024-\(String(format: "%02d-%02d", 1 + number % 12, 1 + number))\n")
                .write(toFile: folder + "/machine.yaml", atomically: true, encoding: .utf8)
        }
        let (output, _) = try build(site)
        for number in 1...24 {
            let archive = try Archive(url: URL(fileURLWithPath: output + "/downloads/box\(number).zip"), accessMode: .read)
            let expected = String(format: "2024-%02d-%02d", 1 + number % 12, 1 + number)
            let dates = Set(archive.map { entry -> String in
                let day = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!,
                                                                          from: entry.fileAttributes[.modificationDate] as! Date)
                return String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
            })
            #expect(dates == [expected], "box\(number)")
        }
    }

    @Test("A downloaded bundle dropped into a site's machines folder builds the same machine, and zips to the same files")
    func roundTrip() throws {
        let (output, _) = try build(Fixtures.site("photos"))
        let site = Fixtures.copy(Fixtures.site("photos"))
        try FileManager.default.removeItem(atPath: site + "/content/machines/camera")
        try FileManager.default.copyItem(atPath: output + "/downloads/camera.zip", toPath: site + "/content/machines/camera.zip")
        let (again, _) = try build(site)
        // The same files; a published photo is encoded once more, so only its bytes may differ.
        let first = try zipEntries(output + "/downloads/camera.zip"), second = try zipEntries(again + "/downloads/camera.zip")
        #expect(first.keys.sorted() == second.keys.sorted())
        #expect(first.filter { !$0.key.contains("/photos/") } == second.filter { !$0.key.contains("/photos/") })
        #expect(Fixtures.read(again + "/machines/camera/parts/body/index.html").contains("The camera on the workbench"))
    }

    @Test("catalog.json gives each machine's counts, absolute URLs, cover, its download's real size and sha256, and its comments' download")
    func catalogJSON() throws {
        let (output, _) = try build(Fixtures.site("machine-view"))
        let data = try #require(FileManager.default.contents(atPath: output + "/catalog.json"))
        let catalog = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(catalog["version"] as? Int == 2)
        #expect(catalog["$schema"] as? String == "http://127.0.0.1/catalog.schema.json")
        let machine = try #require((catalog["machines"] as? [[String: Any]])?.first)
        #expect(machine["slug"] as? String == "press")
        #expect(machine["partCount"] as? Int == 3 && machine["photoCount"] as? Int == 1)
        #expect(machine["commentCount"] == nil, "nothing in catalog.json changes with a comment")
        #expect(machine["url"] as? String == "http://127.0.0.1/machines/press/")
        // The newest date of the bundle: machine.yaml's or a photo's. The press has neither; its comments do not count.
        #expect(machine["updated"] is NSNull)
        let comments = try #require(machine["comments"] as? [String: Any])
        #expect(comments["url"] as? String == "http://127.0.0.1/downloads/comments/press.zip")
        let discussion = try zipEntries(output + "/downloads/comments/press.zip")
        #expect(discussion.keys.sorted() == ["press/parts/core/comments/pull.md", "press/parts/core/comments/stuck.md"])
        #expect(try zipEntries(output + "/downloads/press.zip").keys.allSatisfy { !$0.contains("/comments/") })
        let download = try #require(machine["download"] as? [String: Any])
        let zip = try #require(FileManager.default.contents(atPath: output + "/downloads/press.zip"))
        #expect(download["url"] as? String == "http://127.0.0.1/downloads/press.zip")
        #expect(download["size"] as? Int == zip.count)
        #expect(download["sha256"] as? String == SHA256Hex.of(zip))
        let cover = try #require(machine["cover"] as? [String: Any])
        #expect((cover["url"] as? String)?.hasPrefix("http://127.0.0.1/machines/press/cover/") == true)
        // The schema is published beside it, as JSON.
        let schema = try #require(FileManager.default.contents(atPath: output + "/catalog.schema.json"))
        #expect((try JSONSerialization.jsonObject(with: schema) as? [String: Any])?["$schema"] != nil)
    }

    @Test("Feeds and sitemaps are well-formed XML with Atom's and sitemaps.org's required elements, whatever a comment holds")
    func feedsAndSitemap() throws {
        let site = Fixtures.copy(Fixtures.site("machine-view"))
        // A control character is not allowed anywhere in XML 1.0: it must not break the feed.
        try "---\nauthor: Eve\ndate: 2030-01-02T03:04:05Z\n---\nBell \u{07} & <b>bold</b> <marquee>x</marquee> ]]> \u{FFFF}\n"
            .write(toFile: site + "/content/machines/press/parts/core/comments/bell.md", atomically: true, encoding: .utf8)
        let (output, report) = try build(site)

        for feed in ["/feed.xml", "/machines/press/feed.xml"] {
            let outline = XMLOutline(output + feed)
            #expect(outline.wellFormed, "\(feed): \(outline.error)")
            #expect(outline.rootNamespace == "http://www.w3.org/2005/Atom")
            for element in ["feed/id", "feed/title", "feed/updated", "feed/author/name"] {
                #expect(outline.count(element) == 1, "\(feed) lacks \(element)")
            }
            let entries = outline.count("feed/entry")
            // The two comments and the new one; the photo has no date, so it is not news.
            #expect(entries == 3)
            for element in ["feed/entry/id", "feed/entry/title", "feed/entry/updated", "feed/entry/link", "feed/entry/content"] {
                #expect(outline.count(element) == entries, "\(feed): \(element)")
            }
            // Newest first: the comment dated 2030.
            #expect(outline.texts["feed/entry/updated"]?.first == "2030-01-02T03:04:05Z")
            #expect(outline.texts["feed/entry/title"]?.first == "Eve on Core of the Press")
            // The comment's HTML, made safe as on its page, as the entry's text.
            let content = try #require(outline.texts["feed/entry/content"]?.first)
            #expect(content.contains("Bell") && content.contains("&amp;") && content.contains("<b>bold</b>")
                    && !content.contains("<marquee"), "\(content)")
        }
        let feed = Fixtures.read(output + "/feed.xml")
        #expect(feed.contains("http://127.0.0.1/machines/press/parts/core/#comment-bell"))
        #expect(!feed.contains("\u{07}"))

        // sitemap.xml is the index of the site's sitemap and each machine's, which lists only
        // what is in the machine's folder, as the protocol asks.
        let index = XMLOutline(output + "/sitemap.xml")
        #expect(index.wellFormed, "\(index.error)")
        #expect(index.rootNamespace == "http://www.sitemaps.org/schemas/sitemap/0.9")
        let files = index.texts["sitemapindex/sitemap/loc"] ?? []
        #expect(files == ["http://127.0.0.1/sitemap-site.xml", "http://127.0.0.1/machines/press/sitemap.xml"])
        var locations: [String] = []
        for file in files {
            let sitemap = XMLOutline(output + "/" + file.dropFirst("http://127.0.0.1/".count))
            #expect(sitemap.wellFormed, "\(sitemap.error)")
            #expect(sitemap.rootNamespace == "http://www.sitemaps.org/schemas/sitemap/0.9")
            let listed = sitemap.texts["urlset/url/loc"] ?? []
            let folder = String(file[...file.lastIndex(of: "/")!])
            #expect(!listed.isEmpty && listed.allSatisfy { $0.hasPrefix(folder) }, "\(file): \(listed)")
            locations += listed
        }
        let checker = LinkChecker(root: output, basePath: "/")
        // Every HTML page but the 404 page, the search page and the manual's print page.
        let pages = checker.htmlFiles().filter { !["404.html", "search/index.html", "manual/print/index.html"].contains($0) }
        #expect(locations.count == pages.count)
        #expect(Set(locations) == Set(pages.map { "http://127.0.0.1/" + ($0 == "index.html" ? "" : String($0.dropLast("index.html".count))) }))
        #expect(report.pages > pages.count)
        #expect(Fixtures.read(output + "/robots.txt").contains("Sitemap: http://127.0.0.1/sitemap.xml\n"))
    }

    @Test("The site feed holds the 50 newest of many comments, newest first, with ties in a fixed order")
    func feedLimit() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let comments = site + "/content/machines/box/parts/lid/comments"
        // 80 comments over 40 days: two a day, so half the cut falls between comments of one date.
        for number in 0..<80 {
            let day = String(format: "2030-%02d-%02d", 1 + number / 2 / 28, 1 + number / 2 % 28)
            try "---\nauthor: Bo\ndate: \(day)\n---\nNumber \(number).\n"
                .write(toFile: comments + String(format: "/n%02d.md", number), atomically: true, encoding: .utf8)
        }
        let (output, _) = try build(site)
        let outline = XMLOutline(output + "/feed.xml")
        let updated = try #require(outline.texts["feed/entry/updated"])
        #expect(updated.count == 50)
        #expect(updated == updated.sorted(by: >))
        #expect(updated.first?.hasPrefix("2030-02-12") == true, "the newest day")
        let ids = try #require(outline.texts["feed/entry/id"]).map { String($0.split(separator: "#").last ?? "") }
        // Two comments of a day come in descending name order; the 50 newest are n79 down to n30.
        #expect(ids == (30..<80).reversed().map { String(format: "comment-n%02d", $0) })
    }

    @Test("Parts A-Z as a card file, tag pages for machines and parts, and site.yaml's collections")
    func indexes() throws {
        let site = Fixtures.copy(Fixtures.site("machine-view"))
        let config = site + "/content/site.yaml"
        try (Fixtures.read(config) + """
            collections:
              workshop:
                title: "Workshop"
                description: "Machines for the bench."
                machines: [press, lathe]

            """).write(toFile: config, atomically: true, encoding: .utf8)
        try "name: \"Frame\"\nlayer:\n  image: frame.png\n  z: 3\ntags: [Steel, steel]\n"
            .write(toFile: site + "/content/machines/press/parts/frame/part.yaml", atomically: true, encoding: .utf8)
        let machine = site + "/content/machines/press/machine.yaml"
        try (Fixtures.read(machine) + "tags: [steel, heavy]\n").write(toFile: machine, atomically: true, encoding: .utf8)
        let (output, report) = try build(site)
        // The unknown machine in the collection is named, at its line.
        #expect(report.warnings.filter { $0.description.contains("collection") }.map(\.description) == [
            "content/site.yaml:7:15: warning: invalid 'machines': collection 'workshop' lists 'lathe', which is not a machine; it is left out",
        ])

        let index = Fixtures.read(output + "/parts/index.html")
        // Every letter has a tab; only the letters with parts are links.
        #expect(index.contains("<a href=\"c/\" title=\"1 parts\">C</a>") && index.contains("<a href=\"f/\""))
        #expect(index.contains("<span aria-disabled=\"true\">A</span>"))
        let letter = Fixtures.read(output + "/parts/c/index.html")
        #expect(letter.contains("<a href=\"../../machines/press/parts/core/\">Core</a> <small>of the <a href=\"../../machines/press/\">Press</a>"))
        #expect(letter.contains("aria-current=\"page\""))
        #expect(!letter.contains(">Frame</a>"))

        // "Steel" and "steel" share one page, with the machine and the part.
        let tag = Fixtures.read(output + "/tags/steel/index.html")
        #expect(tag.contains("Tagged “Steel, steel”"))
        #expect(tag.contains("<h3>Press</h3>") && tag.contains(">Frame</a>"))
        #expect(Fixtures.read(output + "/tags/index.html").contains("<a href=\"heavy/\">heavy</a> <small>1 machine</small>"))
        #expect(Fixtures.read(output + "/machines/press/index.html").contains("<li><a href=\"../../tags/heavy/\">heavy</a></li>"))

        let collection = Fixtures.read(output + "/collections/workshop/index.html")
        #expect(collection.contains("<h1>Workshop</h1>") && collection.contains("Machines for the bench.") && collection.contains("<h3>Press</h3>"))
        #expect(Fixtures.read(output + "/index.html").contains("<a href=\"collections/workshop/\">Workshop</a> <small>1 machine</small>"))
        #expect(LinkChecker(root: output, basePath: "/").brokenLinks() == [])
    }

    @Test("Every page has Open Graph and Twitter card tags: title, description, an image with its size, and its canonical URL")
    func sharingTags() throws {
        let (output, _) = try build(Fixtures.demoSite)
        let checker = LinkChecker(root: output, basePath: "/")
        var missing: [String] = []
        for page in checker.htmlFiles() where page != "404.html" {
            let html = Fixtures.read(output + "/" + page)
            for tag in ["<meta property=\"og:title\" content=\"", "<meta property=\"og:description\" content=\"",
                        "<meta property=\"og:url\" content=\"http", "<meta property=\"og:image\" content=\"http",
                        "<meta property=\"og:image:width\" content=\"", "<meta property=\"og:image:height\" content=\"",
                        "<meta name=\"twitter:card\" content=\"summary_large_image\">", "<meta name=\"twitter:image\" content=\"http",
                        "<link rel=\"alternate\" type=\"application/atom+xml\""]
            where !html.contains(tag) {
                missing.append("\(page): \(tag)")
            }
            #expect(!html.contains("og:description\" content=\"\""), "\(page) has an empty description")
        }
        #expect(missing == [])
        let part = Fixtures.read(output + "/machines/desk-fan/parts/motor/index.html")
        #expect(part.contains("<meta property=\"og:image\" content=\"http://127.0.0.1:8080/machines/desk-fan/cover/cover-"))
        #expect(part.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Desk fan: new comments and photos\" href=\"../../feed.xml\">"))
    }

    @Test("New comments remake their machine's comments' zip, feed and sitemap, and leave its bundle's zip, catalog.json, the site's sitemap and other machines' files alone")
    func incremental() throws {
        let site = Fixtures.copy(Fixtures.demoSite + "/content")
        let root = (site as NSString).deletingLastPathComponent + "/demo"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: site, toPath: root + "/content")
        let output = root + "/public"
        let builder = SiteBuilder(siteRoot: root, output: output, cacheFolder: root + "/cache", pagefind: .notInstalled)
        try builder.build()
        func inode(_ path: String) -> UInt64? {
            (try? FileManager.default.attributesOfItem(atPath: output + "/" + path)[.systemFileNumber] as? UInt64) ?? nil
        }
        let before = (fan: inode("downloads/desk-fan.zip"),
                      kettle: inode("downloads/electric-kettle.zip"), kettleFeed: inode("machines/electric-kettle/feed.xml"),
                      catalog: Fixtures.read(output + "/catalog.json"),
                      siteSitemap: inode("sitemap-site.xml"), index: inode("sitemap.xml"))
        #expect(try zipEntries(output + "/downloads/desk-fan.zip").keys.allSatisfy { !$0.contains("/comments/") })
        try "---\nauthor: Ann\ndate: 2031-01-01\n---\nQuiet on speed one.\n"
            .write(toFile: root + "/content/machines/desk-fan/comments/quiet.md", atomically: true, encoding: .utf8)
        // Six comments in all: a second page of the discussion, which only the fan's sitemap lists.
        for number in 1...3 {
            try "---\nauthor: Ann\ndate: 2020-01-0\(number)\n---\nOlder remark \(number).\n"
                .write(toFile: root + "/content/machines/desk-fan/comments/older-\(number).md", atomically: true, encoding: .utf8)
        }
        let kettleSitemap = inode("machines/electric-kettle/sitemap.xml")
        #expect(!Fixtures.read(output + "/machines/desk-fan/sitemap.xml").contains("discussion/2/"))
        let report = try builder.build()
        #expect(Fixtures.read(output + "/machines/desk-fan/sitemap.xml").contains("http://127.0.0.1:8080/machines/desk-fan/discussion/2/"))
        #expect(inode("machines/electric-kettle/sitemap.xml") == kettleSitemap)
        #expect(inode("downloads/electric-kettle.zip") == before.kettle)
        #expect(inode("machines/electric-kettle/feed.xml") == before.kettleFeed)
        #expect(inode("downloads/desk-fan.zip") == before.fan)
        #expect(inode("sitemap-site.xml") == before.siteSitemap && inode("sitemap.xml") == before.index)
        let entries = try zipEntries(output + "/downloads/comments/desk-fan.zip")
        #expect(entries["desk-fan/comments/quiet.md"] == Data("---\nauthor: Ann\ndate: 2031-01-01\n---\nQuiet on speed one.\n".utf8))
        #expect(entries.keys.allSatisfy { BundleDownloads.isComment(String($0.dropFirst("desk-fan/".count))) })
        #expect(Fixtures.read(output + "/catalog.json") == before.catalog)
        #expect(Fixtures.read(output + "/machines/desk-fan/feed.xml").contains("Quiet on speed one."))
        #expect(Fixtures.read(output + "/feed.xml").contains("Quiet on speed one."))
        #expect(report.written < report.pages / 2)
    }
}
