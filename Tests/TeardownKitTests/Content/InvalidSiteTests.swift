import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownBuild

/// One fixture folder per mistake; each must be reported at the right file, line and column.
@Suite("Invalid sites")
struct InvalidSiteTests {
    static let expectations: [String: Diagnostic] = [
        // Reported where the bracket opens, not where YAML gave up looking for its end.
        "yaml-syntax": .error(.yamlSyntax("the '[' here is never closed (did not find expected ',' or ']', line 3)"),
                              at: SourceLocation("content/machines/box/machine.yaml", line: 2, column: 10)),
        "missing-layer-image": .error(.missingLayerImage("ghost.png"),
                                      at: SourceLocation("content/machines/box/parts/lid/part.yaml", line: 3, column: 10)),
        // A slip of the name offers the image that is there.
        "misspelt-layer-image": .error(.missingLayerImage("lidd.svg", closest: "lid.svg"),
                                       at: SourceLocation("content/machines/box/parts/lid/part.yaml", line: 3, column: 10)),
        "unreadable-layer-image": .error(.unreadableImage("lid.png", reason: "not a PNG, JPEG, WebP, GIF or SVG image"),
                                         at: SourceLocation("content/machines/box/parts/lid/part.yaml", line: 3, column: 10)),
        "missing-name": .error(.missingKey("name"), at: SourceLocation("content/machines/box/machine.yaml", line: 1, column: 1)),
        "wrong-type": .error(.wrongType(key: "canvas", expected: "a mapping"),
                             at: SourceLocation("content/machines/box/machine.yaml", line: 2, column: 9)),
        "bad-date": .error(.invalidDate(key: "date", value: "yesterday"),
                           at: SourceLocation("content/machines/box/parts/lid/comments/hello.md", line: 3, column: 7)),
        "unclosed-front-matter": .error(.unclosedFrontMatter,
                                        at: SourceLocation("content/machines/box/parts/lid/comments/hello.md", line: 1, column: 1)),
        "missing-machine-yaml": .error(.missingFile("machine.yaml"), at: SourceLocation("content/machines/box")),
        "invalid-part-name": .error(.invalidName("big lid"), at: SourceLocation("content/machines/box/parts/big lid")),
        "template-syntax": .error(.templateSyntax("the closing tag main does not match an open section (open: page.specs)"),
                                  at: SourceLocation("Themes/default/templates/part.mustache", line: 5, column: 1)),
        "unknown-theme": .error(.themeNotFound("workshop"), at: SourceLocation("content/site.yaml", line: 2, column: 8)),
        "missing-partial": .error(.missingPartial("credits"),
                                  at: SourceLocation("Themes/default/templates/footer.mustache", line: 2, column: 3)),
    ]

    @Test("Every invalid fixture has an expectation")
    func everyCaseCovered() {
        #expect(Set(Fixtures.invalidCases) == Set(Self.expectations.keys))
    }

    @Test("check reports the problem at its location", arguments: Array(expectations.keys).sorted())
    func reportsLocation(_ name: String) throws {
        let diagnostics = SiteBuilder(siteRoot: Fixtures.invalid(name)).check()
        #expect(diagnostics == [Self.expectations[name]!])
    }

    @Test("build fails without touching the output", arguments: ["yaml-syntax", "missing-partial"])
    func buildWritesNothing(_ name: String) throws {
        let output = Fixtures.temporaryFolder() + "/public"
        #expect(throws: BuildFailure.self) {
            try SiteBuilder(siteRoot: Fixtures.invalid(name), output: output, cacheFolder: output + ".cache").build()
        }
        #expect(!TextFile.exists(output))
    }
}
