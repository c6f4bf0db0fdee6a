import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

/// The forms pages get when site.yaml names an intake service, and what catalog.json tells apps.
@Suite struct IntakeFormsTests {
    private func build(_ settings: String) throws -> String {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        let path = site + "/content/site.yaml"
        try (Fixtures.read(path) + settings).write(toFile: path, atomically: true, encoding: .utf8)
        let output = (site as NSString).deletingLastPathComponent + "/public"
        try SiteBuilder(siteRoot: site, output: output, pagefind: .notInstalled).build()
        return output
    }

    @Test func partAndMachinePagesPostToTheService() throws {
        let output = try build("intake_url: \"https://intake.example.org/\"\nmoderation: true\n")
        let part = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        #expect(part.contains(#"<form class="intake-form" method="post" action="https://intake.example.org/forms/comment" data-intake>"#))
        #expect(part.contains(#"action="https://intake.example.org/forms/photo" enctype="multipart/form-data""#))
        #expect(part.contains(#"<input type="hidden" name="part" value="lid">"#))
        #expect(part.contains(#"<input type="hidden" name="back" value="https://example.org/catalog/machines/box/parts/lid/">"#))
        #expect(part.contains(#"data-max="200""#) && part.contains("A moderator reads every submission"))
        #expect(part.contains("intake.js"))
        // Both forms say how long a name may be, before the service refuses one.
        #expect(part.contains("characters, shown with the comment)") && part.contains("characters, shown with the photo)"))
        let machine = Fixtures.read(output + "/machines/box/index.html")
        #expect(machine.contains(#"<input type="hidden" name="machine" value="box">"#))
        #expect(!machine.contains(#"name="part""#), "a machine's comment is on the machine")

        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/catalog.json"))) as? [String: Any]
        #expect(catalog?["intake"] as? [String: String] == [
            "comments": "https://intake.example.org/api/v1/comments",
            "photos": "https://intake.example.org/api/v1/photos",
            "openapi": "https://intake.example.org/api/v1/openapi.json",
        ])
    }

    @Test func withoutAServiceThereAreNoForms() throws {
        let output = try build("")
        let part = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        #expect(!part.contains("<form class=\"intake-form\"") && !part.contains("intake.js"))
        #expect(!Fixtures.read(output + "/catalog.json").contains("\"intake\""))
    }

    @Test func anIntakeURLMustBeAWebAddress() {
        var diagnostics: [Diagnostic] = []
        let site = Fixtures.copy(Fixtures.site("minimal"))
        try? "intake_url: intake.example.org\n".write(toFile: site + "/content/site.yaml", atomically: true, encoding: .utf8)
        _ = SiteConfigLoader.load(SourceFile(root: site, relative: "content/site.yaml"), diagnostics: &diagnostics)
        #expect(diagnostics.map(\.plain) == ["content/site.yaml:1:13: invalid 'intake_url': must start with http:// or https://"])
    }
}
