import Foundation
import Testing
@testable import TeardownContent

/// The Mustache specification's own cases, run against the theme renderer: a site's template
/// overrides are Mustache, and must render as any Mustache implementation renders them.
@Suite("Mustache specification")
struct TemplateSpecTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let spec: String
        let name: String
        let template: String
        let partials: [String: String]
        let expected: String
        let data: JSONBox
        var testDescription: String { "\(spec): \(name)" }
    }

    static let cases: [Case] = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections", "inheritance"]
        .flatMap { spec -> [Case] in
            let url = URL(fileURLWithPath: Fixtures.root + "/mustache-spec/\(spec).json")
            guard let data = try? Data(contentsOf: url),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let tests = json["tests"] as? [[String: Any]]
            else { return [] }
            return tests.map { test in
                Case(spec: spec, name: test["name"] as? String ?? "", template: test["template"] as? String ?? "",
                            partials: test["partials"] as? [String: String] ?? [:], expected: test["expected"] as? String ?? "",
                            data: JSONBox(test["data"] as Any))
            }
        }

    @Test("The specification's cases are all there")
    func casesLoaded() {
        #expect(Self.cases.count > 140)
    }

    @Test("Renders as the specification expects", arguments: cases)
    func conforms(_ test: Case) throws {
        var templates = ["": try TemplateParser.compile(test.template).nodes]
        for (name, text) in test.partials { templates[name] = try TemplateParser.compile(text).nodes }
        #expect(TemplateRenderer.render("", test.data.value, templates: templates) == test.expected)
    }

    @Test("Syntax errors name their line and column")
    func syntaxErrors() {
        #expect(throws: TemplateSyntaxError(message: "the closing tag b does not match an open section (open: a)", line: 2, column: 9)) {
            try TemplateParser.compile("x\n  {{#a}}{{/b}}")
        }
        #expect(throws: TemplateSyntaxError(message: "the section a is never closed", line: 1, column: 2)) {
            try TemplateParser.compile("é{{#a}}")
        }
        #expect(throws: TemplateSyntaxError(message: "a tag is not closed with }}", line: 3, column: 1)) {
            try TemplateParser.compile("\n\n{{name")
        }
        #expect(throws: TemplateSyntaxError(message: "unknown function shout()", line: 1, column: 1)) {
            try TemplateParser.compile("{{shout(name)}}")
        }
    }

    @Test("Functions of values and of list elements")
    func transforms() throws {
        let data = JSONBox(["tags": ["a", "b", "c"], "none": [String](), "n": 4] as [String: Any])
        let template = "{{^empty(tags)}}{{count(tags)}}:{{#tags}}{{index()}}{{.}}{{^last()}},{{/last()}}{{/tags}}{{/empty(tags)}}"
            + "{{#empty(none)}} none{{/empty(none)}} {{plusone(n)}}{{#reversed(tags)}}{{.}}{{/reversed(tags)}}"
        let rendered = TemplateRenderer.render("", data.value, templates: ["": try TemplateParser.compile(template).nodes])
        #expect(rendered == "3:0a,1b,2c none 5cba")
    }

    @Test("A template that includes itself stops instead of recursing forever")
    func recursion() throws {
        let rendered = TemplateRenderer.render("self", JSONBox([String: Any]()).value,
                                               templates: ["self": try TemplateParser.compile("x{{>self}}").nodes])
        #expect(rendered.count == TemplateRenderer.maximumDepth)
    }
}

/// JSON data as template values, as the specification's cases give it.
struct JSONBox: @unchecked Sendable, TemplateObject {
    let json: Any
    init(_ json: Any) { self.json = json }

    var value: TemplateValue { Self.value(json) }

    func value(named name: String) -> TemplateValue {
        guard let dictionary = json as? [String: Any] else { return .missing }
        guard let found = dictionary[name] else { return .missing }
        return Self.value(found)
    }

    private static func value(_ json: Any) -> TemplateValue {
        switch json {
        case is NSNull: return .null
        case let number as NSNumber where String(cString: number.objCType) == "c": return .bool(number.boolValue)
        case let number as NSNumber:
            return Double(number.intValue) == number.doubleValue ? .int(number.intValue) : .double(number.doubleValue)
        case let text as String: return .text(text)
        case let list as [Any]: return .list(list.map { JSONBox($0) })
        case is [String: Any]: return .object(JSONBox(json))
        default: return .null
        }
    }
}

extension JSONBox: TemplateRepresentable {
    var templateValue: TemplateValue { value }
}
