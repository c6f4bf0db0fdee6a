import Foundation
import GRDB
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownMedia
@testable import TeardownBuild

/// The photo fixture site (see Fixtures/make-photo-fixtures.py), copied so tests can change
/// it, with the one bad input git cannot hold: a link to a file that does not exist.
private struct PhotoSite {
    /// What this site's builds counted.
    let counts = Counts()
    let site: String
    let output: String
    let photos: String

    init() throws {
        site = Fixtures.copy(Fixtures.site("photos"))
        output = (site as NSString).deletingLastPathComponent + "/public"
        photos = site + "/content/machines/camera/parts/body/photos"
        try FileManager.default.createSymbolicLink(atPath: photos + "/gone.jpg", withDestinationPath: "missing.jpg")
    }

    @discardableResult
    func build(full: Bool = false) throws(BuildFailure) -> SiteBuilder.Report {
        try SiteBuilder(siteRoot: site, output: output, full: full, cacheFolder: site + "/.teardown-cache",
                        counters: counts.counters).build()
    }

    /// A published file of the body part's photo `name`.
    func published(_ name: String, _ file: String) -> String {
        output + "/machines/camera/parts/body/photos/\(name)/\(file)"
    }

    func publishedImages() -> [String] {
        let files = FileManager.default.enumerator(atPath: output)?.compactMap { $0 as? String } ?? []
        return files.filter { ["jpg", "webp", "png"].contains(($0 as NSString).pathExtension) }.map { output + "/" + $0 }
    }
}

@Suite("Photos")
struct PhotoPipelineTests {
    @Test("All eight EXIF orientations come out upright, 60 x 40, red corner top left", arguments: 1...8)
    func orientation(_ orientation: Int) throws {
        let site = try PhotoSite()
        try site.build()
        let name = "orientation-\(orientation)"
        for file in ["\(name)-60.jpg", "\(name)-60.webp", "\(name).jpg"] {
            let path = site.published(name, file)
            let format = try ImageFormat.of(file: path)
            let header = try Vips.probe(path, format: format)
            #expect(header.width == 60 && header.height == 40, "\(file) is \(header.width) x \(header.height)")
            #expect(header.orientation == 1, "\(file) still asks to be turned")
            let image = try Vips.open(path, format: format, maxPixels: 0)
            let corner = image.pixel(x: 5, y: 5), far = image.pixel(x: 55, y: 35)
            #expect(corner[0] > 200 && corner[2] < 60, "\(file): top left is \(corner), not red")
            #expect(far[2] > 200 && far[0] < 60, "\(file): bottom right is \(far), not blue")
        }
    }

    @Test("The layer reader and the image stage agree on a turned JPEG's size", arguments: 1...8)
    func headerHonoursOrientation(_ orientation: Int) throws {
        // Turned by 90 degrees (5 to 8), a layer with an offset was placed at its unturned size.
        let path = Fixtures.site("photos") + "/content/machines/camera/parts/body/photos/orientation-\(orientation).jpg"
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let header = try ImageHeader.size(of: data, pathExtension: "jpg")
        let decoded = try Vips.open(path, format: .jpeg, maxPixels: 0).size
        #expect(header == decoded, "orientation \(orientation): the header says \(header), the image stage \(decoded)")
        #expect(header == PixelSize(width: 60, height: 40))
    }

    @Test("No published image carries GPS, camera, serial number, maker note or any EXIF")
    func metadataStripped() throws {
        let site = try PhotoSite()
        try site.build()
        let images = site.publishedImages()
        #expect(images.count >= 30)
        for path in images {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for secret in ["TeardownCam", "TC-1", "SERIAL-123456", "MAKERNOTE", "Exif\0\0", "GPS", "2024:05:17"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(path) contains \(secret)")
            }
            let header = try Vips.probe(path, format: try ImageFormat.of(file: path))
            #expect(header.make.isEmpty && header.model.isEmpty && header.latitude.isEmpty && header.taken.isEmpty)
        }
    }

    @Test("Each bad photo is skipped with a warning naming its file; the build succeeds")
    func badPhotos() throws {
        let site = try PhotoSite()
        // Two photos whose names differ only by extension would share one page.
        try FileManager.default.copyItem(atPath: site.photos + "/orientation-1.jpg", toPath: site.photos + "/workbench.webp")
        let report = try site.build()
        let expected = [
            "workbench.webp": "'workbench.jpg' in the same folder has the same name",
            "empty.jpg": "the file is empty",
            "truncated.jpg": "cannot be decoded",
            "corrupted.jpg": "cannot be decoded",
            "not-an-image.jpg": "not a JPEG, PNG or WebP image",
            "really-a-tiff.jpg": "not a JPEG, PNG or WebP image",
            "really-a-gif.png": "GIF images are not accepted here",
            "bomb.png": "2000 x 2000 pixels is more than the limit of 1000000 pixels",
            "gone.jpg": "it is a symbolic link, which could lead out of content/",
        ]
        for (name, reason) in expected {
            let warning = report.warnings.first { $0.location.path.hasSuffix("/photos/" + name) }
            #expect(warning?.severity == .warning, "no warning for \(name)")
            #expect(warning?.location.line == 1)
            #expect(warning?.problem.message.hasPrefix("photo skipped: ") == true)
            #expect(warning?.problem.message.contains(reason) == true, "\(name): \(warning?.problem.message ?? "nothing")")
            let stem = (name as NSString).deletingPathExtension
            #expect(stem == "workbench" || !TextFile.exists(site.published(stem, "index.html")), "\(name) got a page")
        }
        let gallery = Fixtures.read(site.output + "/machines/camera/parts/body/photos/index.html")
        #expect(gallery.contains("10 photos"))
        // The first of the two same-named photos keeps its page.
        #expect(TextFile.exists(site.published("workbench", "workbench-800.jpg")))
        #expect(!gallery.contains("truncated"))
    }

    @Test("A bundle taken as the image index holds it says again what could not be published, and leaves it out again")
    func badPhotosCarried() throws {
        let site = try PhotoSite()
        // A photo that cannot be read has no key, and keeps its bundle looked at on every build.
        try FileManager.default.removeItem(atPath: site.photos + "/gone.jpg")
        let first = try site.build()
        func skipped(_ report: SiteBuilder.Report) -> [String] {
            report.warnings.filter { $0.problem.message.hasPrefix("photo skipped: ") }
                .map { "\($0.location.path):\($0.location.line) \($0.problem.message)" }.sorted()
        }
        // Out of the racy window, the bundle's row is made under its signature, then taken as it is.
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.2)
        try site.build(full: true)
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.2)
        try FileManager.default.createDirectory(atPath: site.site + "/content/manual", withIntermediateDirectories: true)
        try "# Manual\n\nAnother page.\n".write(toFile: site.site + "/content/manual/index.md", atomically: true, encoding: .utf8)
        let lookedUp = site.counts[.imagesLookedUp]
        let carried = try site.build()
        #expect(site.counts[.imagesLookedUp] == lookedUp, "the camera's images taken from its row")
        #expect(!skipped(first).isEmpty && skipped(carried) == skipped(first))
        let gallery = Fixtures.read(site.output + "/machines/camera/parts/body/photos/index.html")
        #expect(gallery.contains("10 photos") && !gallery.contains("truncated"))
        #expect(!TextFile.exists(site.published("truncated", "index.html")))
    }

    @Test("A carried bundle's row is decided on its summary; a row whose bytes changed is a miss, and is made again")
    func rowBytesChecked() throws {
        let site = try PhotoSite()
        try FileManager.default.removeItem(atPath: site.photos + "/gone.jpg")
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.2)
        try site.build(full: true)
        let reference = try Data(contentsOf: URL(fileURLWithPath: site.published("orientation-3", "orientation-3-60.jpg")))
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.2)
        func editManual(_ text: String) throws {
            try FileManager.default.createDirectory(atPath: site.site + "/content/manual", withIntermediateDirectories: true)
            try "# Manual\n\n\(text)\n".write(toFile: site.site + "/content/manual/index.md", atomically: true, encoding: .utf8)
        }
        try editManual("Another page.")
        var (lookedUp, decoded) = (site.counts[.imagesLookedUp], site.counts[.imageRowsDecoded])
        try site.build()
        #expect(site.counts[.imagesLookedUp] == lookedUp, "the camera's images taken from its row")
        #expect(site.counts[.imageRowsDecoded] == decoded + 1, "its row decoded once, to say its failures again")
        // One byte of the row changed, its digest kept: the row is a miss, as one that does not decode.
        let path = site.site + "/.teardown-cache/images/index.sqlite"
        let index = try #require(ImageIndex.open(path))
        let name = "camera"
        let row = try #require(try index.bundles()[name])
        var bytes = [UInt8](row.images)
        bytes[bytes.count / 2] ^= 0x20
        var changes = ImageIndex.Changes()
        changes.bundles[name] = ImageIndex.Row(settings: row.settings, summary: row.summary, cover: row.cover,
                                               images: Data(bytes), digest: row.digest)
        index.write(changes)
        try editManual("A page again.")
        (lookedUp, decoded) = (site.counts[.imagesLookedUp], site.counts[.imageRowsDecoded])
        let report = try site.build()
        #expect(report.imagesProcessed > 0, "its images made again, as a damaged index's are")
        #expect(site.counts[.imagesLookedUp] > lookedUp, "the bundle's images looked up by key")
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.published("orientation-3", "orientation-3-60.jpg"))) == reference)
        #expect(try #require(try index.bundles()[name]).isWhole, "the row written again")
    }

    @Test("An image index of the previous format is brought up to date in place: no image is made again")
    func indexUpgraded() throws {
        let site = try PhotoSite()
        let made = try site.build().imagesProcessed
        #expect(made > 0)
        let path = site.site + "/.teardown-cache/images/index.sqlite"
        // The previous format: each bundle's settings and images, nothing beside them.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT name, settings, images FROM bundles")
            try db.execute(sql: "DROP TABLE bundles")
            try db.execute(sql: "CREATE TABLE bundles(name TEXT PRIMARY KEY, settings TEXT NOT NULL, images BLOB NOT NULL) WITHOUT ROWID")
            for row in rows {
                try db.execute(sql: "INSERT INTO bundles(name, settings, images) VALUES (?, ?, ?)", arguments: [row[0], row[1], row[2]])
            }
            try db.execute(sql: "UPDATE meta SET value = 'teardown-images 1' WHERE name = 'format'")
        }
        try queue.close()
        #expect(try site.build(full: true).imagesProcessed == 0, "the rows kept what the entries hold")
        let index = try #require(ImageIndex.open(path))
        #expect(try !index.bundles().isEmpty && index.bundles().values.allSatisfy(\.isWhole))
    }

    @Test("A site moved whole, its cache with it, publishes its photos from their new place")
    func movedSite() throws {
        let site = try PhotoSite()
        try FileManager.default.removeItem(atPath: site.photos + "/gone.jpg")
        try site.build()
        // Out of the racy window, the image index's rows are made under the bundles' signatures.
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.2)
        try site.build(full: true)
        let before = Fixtures.read(site.output + "/machines/camera/parts/body/photos/index.html")
        let parent = (site.site as NSString).deletingLastPathComponent
        let moved = parent + "-moved"
        try FileManager.default.moveItem(atPath: parent, toPath: moved)
        let root = moved + "/" + (site.site as NSString).lastPathComponent
        try SiteBuilder(siteRoot: root, output: moved + "/public", cacheFolder: root + "/.teardown-cache").build()
        let after = Fixtures.read(moved + "/public/machines/camera/parts/body/photos/index.html")
        #expect(before.contains("10 photos") && after.contains("10 photos"))
        #expect(TextFile.exists(moved + "/public/machines/camera/parts/body/photos/workbench/workbench-800.jpg"))
    }

    @Test("A damaged layer image is an error naming the file, and nothing is published")
    func badLayer() throws {
        let site = try PhotoSite()
        let layer = site.site + "/content/machines/camera/parts/body/body.png"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: layer))
        bytes = bytes.prefix(bytes.count / 2)
        try bytes.write(to: URL(fileURLWithPath: layer))
        do throws(BuildFailure) {
            try site.build()
            Issue.record("the build succeeded")
        } catch {
            let problem = error.diagnostics.first { $0.severity == .error }
            #expect(problem?.location.path.hasSuffix("parts/body/body.png") == true)
            #expect(problem?.problem.message.contains("cannot read image 'body.png'") == true)
        }
        #expect(!TextFile.exists(site.output + "/index.html"))
    }

    @Test("Unchanged photos come from the cache; a changed one is made again; unused entries are pruned")
    func cache() throws {
        let site = try PhotoSite()
        let first = try site.build()
        #expect(first.imagesProcessed > 0)
        let entries = site.site + "/.teardown-cache/images/entries"
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: entries))

        // A new comment: everything is rebuilt from the content, but no image is processed.
        let comment = site.site + "/content/machines/camera/parts/body/comments/new.md"
        try FileManager.default.createDirectory(atPath: (comment as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "---\nauthor: Ada\ndate: 2024-06-01\n---\nNice.\n".write(toFile: comment, atomically: true, encoding: .utf8)
        let hashed = { site.counts[.sourcesHashed] }
        let hashedBefore = hashed(), queriesBefore = site.counts[.sourceQueries]
        #expect(try site.build().imagesProcessed == 0)
        #expect(hashed() == hashedBefore, "the source index vouches for every unchanged file by its signature")
        #expect(site.counts[.sourceQueries] == queriesBefore + 1, "the machine's sources are read in one query, not one each")

        // Another photo in place of one (bytes no source had): only it is processed, and its
        // old entry goes.
        try FileManager.default.removeItem(atPath: site.photos + "/orientation-2.jpg")
        try FileManager.default.copyItem(atPath: site.published("workbench", "workbench-640.jpg"),
                                         toPath: site.photos + "/orientation-2.jpg")
        #expect(try site.build().imagesProcessed == 1)
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: entries))
        #expect(after.subtracting(before).count == 1)
        #expect(before.subtracting(after).count == 1)
        let header = try Vips.probe(site.published("orientation-2", "orientation-2-640.jpg"), format: .jpeg)
        #expect(header.width == 640)
    }

    @Test("A damaged image index costs one build its images, then works again")
    func damagedIndex() throws {
        let site = try PhotoSite()
        let made = try site.build().imagesProcessed
        #expect(made > 0)
        let index = site.site + "/.teardown-cache/images/index.sqlite"
        // The header and the first pages kept (the format row is read fine), every page after them garbage.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: index)))
        for offset in stride(from: min(3 * 4096, bytes.count / 2), to: bytes.count, by: 1) { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31) }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
        try Data(bytes).write(to: URL(fileURLWithPath: index))
        #expect(try site.build(full: true).imagesProcessed == made)
        #expect(try site.build(full: true).imagesProcessed == 0)
    }

    @Test("A cache entry deleted by hand is made again by the next build that looks at images")
    func deletedEntry() throws {
        let site = try PhotoSite()
        #expect(try site.build().imagesProcessed > 0)
        let entries = site.site + "/.teardown-cache/images/entries"
        func comment(_ name: String) throws {
            let path = site.site + "/content/machines/camera/comments/\(name).md"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "---\nauthor: Ada\ndate: 2024-06-01\n---\nNice.\n".write(toFile: path, atomically: true, encoding: .utf8)
        }
        // Out of the racy window, the index vouches for the entries folder as the last build left it.
        Thread.sleep(forTimeInterval: InputSnapshot.racyWindow + 0.1)
        try comment("first")
        #expect(try site.build().imagesProcessed == 0)
        // That build listed the folder once and vouched for it: the next one does not list it.
        let listings = { site.counts[.imageListings] }
        let listed = listings()
        try comment("between")
        #expect(try site.build().imagesProcessed == 0)
        #expect(listings() == listed, "an entries folder the index vouches for is not listed")
        let entry = try #require(try FileManager.default.contentsOfDirectory(atPath: entries).sorted().first)
        try FileManager.default.removeItem(atPath: entries + "/" + entry)
        try comment("second")
        #expect(try site.build().imagesProcessed == 1)
        #expect(listings() == listed + 1)
        #expect(FileSystem.isDirectory(entries + "/" + entry))
    }

    @Test("Galleries use <picture> with WebP and JPEG srcsets, sizes, width, height and lazy loading")
    func html() throws {
        let site = try PhotoSite()
        try site.build()
        let gallery = Fixtures.read(site.output + "/machines/camera/parts/body/photos/index.html")
        #expect(gallery.contains("<source type=\"image/webp\" srcset=\"workbench/workbench-320.webp 320w, "
            + "workbench/workbench-640.webp 640w, workbench/workbench-800.webp 800w\""))
        #expect(gallery.contains("<img src=\"workbench/workbench-640.jpg\" srcset=\"workbench/workbench-320.jpg 320w, "
            + "workbench/workbench-640.jpg 640w, workbench/workbench-800.jpg 800w\" sizes=\""))
        #expect(gallery.contains("width=\"640\" height=\"480\" alt=\"The camera on the workbench\" loading=\"lazy\""))
        // Without JavaScript the photo opens its page; the lightbox reads the large image from data-.
        #expect(gallery.contains("<a href=\"workbench/\" data-lightbox=\"workbench/workbench-800.webp\" data-width=\"800\" data-height=\"600\">"))
        #expect(!gallery.contains("<img src=\"") || !gallery.contains("<img src=\"\""))
        let imgTags = gallery.components(separatedBy: "<img ").dropFirst()
        #expect(imgTags.count == 10)
        #expect(imgTags.allSatisfy { $0.contains(" width=\"") && $0.contains(" height=\"") && $0.contains("loading=\"lazy\"") })
    }

    @Test("A photo page shows caption, credit, license, date taken, camera, download, and the place only with consent")
    func photoPage() throws {
        let site = try PhotoSite()
        try site.build()
        let page = Fixtures.read(site.published("workbench", "index.html"))
        #expect(page.contains("<h1>The camera on the workbench</h1>"))
        #expect(page.contains("<dd>Photo by Ada</dd>"))
        #expect(page.contains("<dd>CC BY 4.0</dd>"))
        #expect(page.contains("<dt>Taken</dt><dd>2024-05-17 14:03</dd>"))
        #expect(page.contains("<dt>Camera</dt><dd>TeardownCam TC-1 Mark II</dd>"))
        #expect(page.contains("48.85840° N, 2.29450° E"))
        #expect(page.contains("https://www.openstreetmap.org/?mlat=48.85840&amp;mlon=2.29450"))
        #expect(page.contains("<a href=\"workbench.jpg\" download>Download the photo (JPG, 800 × 600"))
        #expect(page.contains("<a href=\"../../\">Body</a>"))
        #expect(page.contains("<meta property=\"og:image\" content=\"https://example.org/machines/camera/parts/body/photos/workbench/workbench-800.jpg\">"))
        // The same metadata without the sidecar's consent: no place.
        let other = Fixtures.read(site.published("orientation-1", "index.html"))
        #expect(other.contains("TeardownCam"))
        #expect(!other.contains("openstreetmap"))
        #expect(!other.contains("48.8"))
    }

    @Test("machine.json has each layer's box, opaque bounds and hit-mask; the cover is composed from the layers")
    func machineData() throws {
        let site = try PhotoSite()
        try site.build()
        let data = try Data(contentsOf: URL(fileURLWithPath: site.output + "/machines/camera/machine.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let part = try #require((json["parts"] as? [[String: Any]])?.first)
        #expect(part["image"] as? String == "parts/body/body.webp")
        #expect(part["page"] as? String == "parts/body/")
        let bounds = try #require(part["bounds"] as? [String: Int])
        #expect(bounds == ["x": 60, "y": 0, "width": 60, "height": 80])
        let mask = try #require(part["mask"] as? [String: Any])
        // 80 pixels high is more than 64 cells: a cell covers 2 x 2 pixels.
        #expect(mask["columns"] as? Int == 30)
        #expect(mask["rows"] as? Int == 40)
        #expect(TextFile.exists(site.output + "/machines/camera/parts/body/body.webp"))
        let cover = try Vips.open(site.output + "/machines/camera/cover/cover-120.jpg", format: .jpeg, maxPixels: 0)
        // The left half is transparent in the layer: white on the JPEG cover; the right half is grey.
        #expect(cover.pixel(x: 10, y: 40)[0] > 240)
        #expect(abs(cover.pixel(x: 100, y: 40)[0] - 90) < 10)
    }
}

@Suite("Hit-masks and photo metadata")
struct HitMaskTests {
    @Test("The bounding box and mask follow the opaque pixels, scaled to the layer's box")
    func mask() throws {
        // 8 x 4 pixels, opaque in a 2 x 2 square at (4, 1); drawn twice as large at (100, 50).
        var alpha = [UInt8](repeating: 0, count: 32)
        for (x, y) in [(4, 1), (5, 1), (4, 2), (5, 2)] { alpha[y * 8 + x] = 255 }
        let mask = try #require(HitMask(alpha: alpha, size: PixelSize(width: 8, height: 4), box: (100, 50, 16, 8)))
        #expect([mask.x, mask.y, mask.width, mask.height] as [Int] == [108, 52, 4, 4])
        #expect(mask.contains(x: 109, y: 53))
        #expect(!mask.contains(x: 107, y: 53))
        #expect(HitMask(alpha: [UInt8](repeating: 0, count: 32), size: PixelSize(width: 8, height: 4), box: (0, 0, 8, 4)) == nil)
        let opaque = try #require(HitMask(alpha: nil, size: PixelSize(width: 8, height: 4), box: (0, 0, 8, 4)))
        #expect([opaque.x, opaque.y, opaque.width, opaque.height] as [Int] == [0, 0, 8, 4])
    }

    @Test("A large layer's mask stays coarse: at most 64 cells along its longer side")
    func coarse() throws {
        let mask = try #require(HitMask(alpha: nil, size: PixelSize(width: 1000, height: 500), box: (0, 0, 1000, 500)))
        #expect(mask.columns <= HitMask.resolution && mask.rows <= HitMask.resolution)
        #expect(mask.contains(x: 999, y: 499))
    }

    @Test("EXIF values as libvips renders them: camera, date, and signed coordinates")
    func metadata() {
        #expect(PhotoMetadata.value("TeardownCam (TeardownCam, ASCII, 12 components, 12 bytes)") == "TeardownCam")
        #expect(PhotoMetadata.exifDate("2024:05:17 14:03:22") == "2024-05-17 14:03")
        #expect(PhotoMetadata.exifDate("0000:00:00 00:00:00") == nil)
        let latitude = PhotoMetadata.coordinate("48/1 51/1 756/25 (48, 51, 30.24, Rational, 3 components, 24 bytes)",
                                                reference: "N (N, ASCII, 2 components, 2 bytes)", negative: "S")
        #expect(abs((latitude ?? 0) - 48.8584) < 0.00001)
        let west = PhotoMetadata.coordinate("2/1 17/1 201/5 (2, 17, 40.2, Rational, 3 components, 24 bytes)",
                                            reference: "W (W, ASCII, 2 components, 2 bytes)", negative: "W")
        #expect(abs((west ?? 0) + 2.29450) < 0.00001)
        #expect(PageRenderer.humanSize(999) == "999 bytes")
        #expect(PageRenderer.humanSize(8_100) == "8.1 kB")
        #expect(PageRenderer.humanSize(1_234_567) == "1.2 MB")
    }
}
