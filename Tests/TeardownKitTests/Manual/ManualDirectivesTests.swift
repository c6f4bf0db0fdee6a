import Foundation
import Testing
@testable import TeardownContent
@testable import TeardownBuild

/// mdBook's `{{#include}}`, `{{#rustdoc_include}}` and `{{#playground}}` in a real build of the
/// mdBook-style fixture, with files to include beside its pages.
@Suite("mdBook directives in a manual")
struct ManualDirectivesTests {
    static let listing = """
        use std::io;
        // ANCHOR: main
        fn main() {
            println!("hello");
        }
        // ANCHOR_END: main
        fn helper() {}

        """

    static func site(page: String, extra: [String: String] = [:]) throws -> String {
        let site = Fixtures.copy(Fixtures.site("manual"))
        let manual = site + "/content/manual"
        try Fixtures.write(page, to: "glossary.md", in: manual)
        try Fixtures.write(Self.listing, to: "listings/hello.rs", in: manual)
        for (path, text) in extra { try Fixtures.write(text, to: path, in: manual) }
        return site
    }

    @Test("Includes whole files, line ranges and anchors; playground is a Rust code block; an escaped directive stays as written")
    func expandsDirectives() throws {
        let page = """
            # Glossary

            ```rust
            {{#include listings/hello.rs}}
            ```

            ```rust
            {{#include listings/hello.rs:3:5}}
            ```

            ```rust
            {{#rustdoc_include listings/hello.rs:main}}
            ```

            {{#playground listings/hello.rs}}

            Write \\{{#include file.rs}} to include a file.

            {{#include shared/note.md}}
            """
        let site = try Self.site(page: page, extra: ["shared/note.md": "\u{FEFF}A shared note with **bold** words.\r\n"])
        let report = try SiteBuilder(siteRoot: site, pagefind: .notInstalled).build()
        let warnings = report.warnings.map(\.description).filter { $0.hasPrefix("content/manual/glossary.md") || $0.contains("/shared/") }
        #expect(warnings.isEmpty, "\(warnings)")
        let html = Fixtures.read(site + "/public/manual/glossary/index.html")
        // Each code block's text, without the highlighter's spans.
        let blocks = html.components(separatedBy: "<pre").dropFirst().map {
            $0.components(separatedBy: "</pre>")[0].replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        }
        let classes = html.components(separatedBy: "<pre").dropFirst().map { $0.prefix(80) }
        #expect(blocks.count == 4, "\(blocks)")
        // Whole: every line but the anchors' markers.
        #expect(blocks[0].contains("use std::io;") && blocks[0].contains("fn helper() {}") && !blocks[0].contains("ANCHOR"))
        // Lines 3 to 5, and the anchor: the function alone.
        for block in blocks[1...2] {
            #expect(block.contains("fn main()") && block.contains("}") && !block.contains("use std") && !block.contains("helper"),
                    "\(block)")
        }
        #expect(classes.last?.contains("language-rust") == true && blocks[3].contains("fn helper"), "\(classes)")
        #expect(html.contains("Write {{#include file.rs}} to include a file."))
        #expect(html.contains("A shared note with <strong>bold</strong> words."))
        #expect(!html.contains("\u{FEFF}") && !html.contains("\r"), "an included file reads as every text file does")
        // A file SUMMARY.md leaves out and a page includes is a snippet, not a page of its own.
        #expect(!FileManager.default.fileExists(atPath: site + "/public/manual/shared/note/index.html"))
    }

    @Test("An unknown directive, a file outside the manual, a missing anchor and a broken link in an included file are warned of at their lines")
    func warnsWithLines() throws {
        let page = """
            # Glossary

            {{#title A better title}}

            {{#include ../../site.yaml}}

            {{#include listings/hello.rs:nowhere}}

            {{#include shared/links.md}}

            Mustache's `{{#tags}}` section is code, not a directive:

            ```mustache
            {{#parts}}{{name}}{{/parts}}
            ```
            """
        let site = try Self.site(page: page, extra: ["shared/links.md": "First line.\n\nSee [the missing page](missing.md).\n"])
        let report = try SiteBuilder(siteRoot: site, pagefind: .notInstalled).build()
        let warnings = report.warnings.map(\.description).filter { $0.hasPrefix("content/manual/") && !$0.contains("SUMMARY") }
            .filter { !$0.contains("renamed") && !$0.contains("unlisted") }
        #expect(warnings.contains { $0.hasPrefix("content/manual/glossary.md:3:1: warning: '{{#title}}' is not a directive Teardown knows") },
                "\(warnings)")
        #expect(warnings.contains("content/manual/glossary.md:5:1: warning: '{{#include}}' is left out: '../../site.yaml' is outside the manual's folder"),
                "\(warnings)")
        #expect(warnings.contains("content/manual/glossary.md:7:1: warning: '{{#include}}' is left out: 'listings/hello.rs' has no anchor 'nowhere'"),
                "\(warnings)")
        // The link is in the included file, on its third line.
        #expect(warnings.contains { $0.hasPrefix("content/manual/shared/links.md:3:5: warning: broken link 'missing.md'") }, "\(warnings)")
        let html = Fixtures.read(site + "/public/manual/glossary/index.html")
        #expect(html.contains("{{#title A better title}}"))
        #expect(!warnings.contains { $0.contains("{{#tags}}") || $0.contains("{{#parts}}") }, "\(warnings)")
        #expect(html.contains("<code>{{#tags}}</code>"))
        #expect(!html.contains("title: "), "nothing of site.yaml is shown")
    }

    @Test("Line ranges as mdBook reads them")
    func ranges() {
        let text = "one\ntwo\nthree\nfour\n"
        #expect(ManualDirectives.select(text, "") == text)
        #expect(ManualDirectives.select(text, "2") == "two\n")
        #expect(ManualDirectives.select(text, "2:3") == "two\nthree\n")
        #expect(ManualDirectives.select(text, "3:") == "three\nfour\n")
        #expect(ManualDirectives.select(text, ":2") == "one\ntwo\n")
        #expect(ManualDirectives.select(text, "9") == nil)
        #expect(ManualDirectives.select(text, "3:2") == nil)
    }
}
