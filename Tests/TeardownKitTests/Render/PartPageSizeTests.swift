import Foundation
import Testing
@testable import TeardownBuild

/// A part page draws its machine faded behind the part from one composed image, so its size
/// does not depend on how many parts the machine has.
@Suite("Part pages that do not grow with their machine")
struct PartPageSizeTests {
    @Test("Part pages of a 10-part machine and of a 1,000-part machine differ by less than 2 KB")
    func constantSize() throws {
        let root = Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let site = root + "/site"
        try Self.write("title: \"Sizes\"\nbase_url: \"https://example.org/\"\n", to: site + "/content/site.yaml")
        // Slugs, names and layer files of one length on both machines, so only the part count differs.
        for (slug, count) in [("small", 10), ("large", 1000)] {
            let folder = site + "/content/machines/\(slug)"
            try Self.write("name: \"Machine \(slug)\"\nsummary: \"A machine.\"\ncanvas: {width: 400, height: 300}\n",
                           to: folder + "/machine.yaml")
            for number in 1...count {
                let part = folder + "/parts/" + String(format: "p%04d", number)
                try Self.write("name: \"Part \(String(format: "%04d", number))\"\nlayer:\n  image: layer.svg\n  z: \(number)\n",
                               to: part + "/part.yaml")
                try Self.write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"300\">"
                               + "<rect x=\"\(number % 380)\" y=\"\(number % 280)\" width=\"20\" height=\"20\" fill=\"#345\"/></svg>\n",
                               to: part + "/layer.svg")
            }
        }
        let output = root + "/public"
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: root + "/cache", pagefind: .notInstalled).build()
        let small = Fixtures.read(output + "/machines/small/parts/p0002/index.html")
        let large = Fixtures.read(output + "/machines/large/parts/p0002/index.html")
        #expect(abs(small.utf8.count - large.utf8.count) < 2048, "\(small.utf8.count) against \(large.utf8.count) bytes")
        // The faded machine is one image, the cover composed from the layers, which is published.
        for (page, slug) in [(small, "small"), (large, "large")] {
            #expect(page.contains("background-image: url(&quot;../../cover/cover-400.webp&quot;)")
                        || page.contains("background-image: url(\"../../cover/cover-400.webp\")"), "\(slug)")
            #expect(!page.contains("parts/p0003/"), "no other part's layer is named on \(slug)'s part page")
            #expect(FileManager.default.fileExists(atPath: output + "/machines/\(slug)/cover/cover-400.webp"))
        }
    }

    @Test("A machine with a cover photo draws its part pages from its composed layers, published beside the cover")
    func coverPhoto() throws {
        let site = Fixtures.copy(Fixtures.site("photos"))
        let machine = site + "/content/machines/camera"
        try FileManager.default.copyItem(atPath: machine + "/parts/body/photos/workbench.jpg", toPath: machine + "/cover.jpg")
        try Self.write(Fixtures.read(machine + "/machine.yaml") + "cover: cover.jpg\n", to: machine + "/machine.yaml")
        let output = (site as NSString).deletingLastPathComponent + "/public"
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        let stack = try FileManager.default.contentsOfDirectory(atPath: output + "/machines/camera/stack")
        #expect(stack.count == 1 && stack[0].hasSuffix(".webp"))
        let page = Fixtures.read(output + "/machines/camera/parts/body/index.html")
        #expect(page.contains("../../stack/\(stack.first ?? "")"))
    }

    private static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }
}
