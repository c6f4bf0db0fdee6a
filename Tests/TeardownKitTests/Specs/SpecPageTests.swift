import Foundation
import Testing
@testable import TeardownContent
@testable import TeardownBuild
@testable import TeardownBase

@Suite("Specifications on part pages")
struct SpecPageTests {
    static let partYAML = "content/machines/box/parts/lid/part.yaml"

    /// Each row of the page's specs table: the label, the value as written, and the conversions.
    static func rows(_ html: String) throws -> [String: (written: String, conversions: [String])] {
        let row = try Regex(#"<tr><th scope="row">([^<]*)</th><td><span class="spec-value">([^<]*)</span>(.*?)</td></tr>"#)
        let conversion = try Regex(#"<span class="spec-conversion"[^>]*>([^<]*)"#)
        var rows: [String: (String, [String])] = [:]
        for match in html.matches(of: row) {
            let cell = String(match.output[3].substring ?? "")
            let conversions = cell.matches(of: conversion).map {
                String($0.output[1].substring ?? "").replacingOccurrences(of: "&nbsp;", with: " ")
            }
            rows[String(match.output[1].substring ?? "")] = (String(match.output[2].substring ?? ""), conversions)
        }
        return rows
    }

    @Test("A value that does not read as a quantity is a warning at its line and column")
    func warnings() {
        let warnings = SiteBuilder(siteRoot: Fixtures.site("specs")).check()
        let found = warnings.map { "\($0.location.line):\($0.location.column) \($0.problem)" }
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.location.path == Self.partYAML })
        #expect(found == [
            "13:13 \(Problem.specValue(label: "Firmware", value: "1.2.3 GB", reason: "'1.2.3' is not a number"))",
            "14:12 \(Problem.specValue(label: "Storage", value: "4.7 XB", reason: SpecValueProblem.unknownUnit("XB", hint: nil).reason))",
            "15:10 \(Problem.specValue(label: "Label", value: "", reason: "the value is empty"))",
            "16:10 \(Problem.specValue(label: "Range", value: "5 °C - 50 °F", reason: SpecValueProblem.mixedUnits("°C", "°F").reason))",
            "17:8 \(Problem.specValue(label: "Note", value: "", reason: "the value is empty"))",
        ])
    }

    @Test("A quantity of another kind than its label asks for is a warning: a width in kilograms, a length in furlongs")
    func labelsAskForAQuantity() throws {
        let site = Fixtures.copy(Fixtures.site("minimal"))
        try Fixtures.write("""
            name: "Lid"
            layer:
              image: lid.svg
              z: 1
            specs:
              Width: "300 kg"
              Length: "300 furlongs"
              Blade diameter: "30 cm"
              Weight: "2 lb"
              Cores: "4 cores"
              Power: "550 W"

            """, to: "content/machines/box/parts/lid/part.yaml", in: site)
        let warnings = SiteBuilder(siteRoot: site).check().map { "\($0.location.line):\($0.location.column) \($0.problem)" }
        #expect(warnings == [
            "6:10 \(Problem.specDimension(label: "Width", value: "300 kg", measures: "a mass ('kg')", expected: "a length"))",
            "7:11 \(Problem.specValue(label: "Length", value: "300 furlongs", reason: SpecValueProblem.unknownUnit("furlongs", hint: nil).reason))",
        ])
        #expect(Problem.specDimension(label: "Width", value: "300 kg", measures: "a mass ('kg')", expected: "a length").message
            .hasPrefix("spec 'Width' value '300 kg' is a mass ('kg'), but 'Width' asks for a length"))
    }

    @Test("The page shows every value as written, with its conversions; the ones that did not parse keep their text")
    func page() throws {
        let output = Fixtures.temporaryFolder() + "/public"
        let report = try SiteBuilder(siteRoot: Fixtures.site("specs"), output: output, cacheFolder: output + ".cache").build()
        #expect(report.warnings.count == 5)
        let html = Fixtures.read(output + "/machines/box/parts/lid/index.html")
        let rows = try Self.rows(html)
        #expect(rows.count == 12)
        #expect(rows["Mass"]?.written == "1.2 kg")
        #expect(rows["Mass"]?.conversions == ["≈ 2.65 lb"])
        #expect(rows["Working temperature"]?.conversions == ["= 41–122 °F", "= 278.15–323.15 K"])
        #expect(rows["Size"]?.conversions == ["≈ 4.72 × 4.72 × 0.984 in"])
        #expect(rows["Capacity"]?.conversions == ["≈ 4.38 GiB "], "the binary size, then its note")
        #expect(html.contains(#"<span class="spec-value">4.7 GB</span> <small>(decimal)</small>"#))
        #expect(html.contains(#"4.38 GiB <small>(binary)</small>"#))
        #expect(rows["Memory"]?.conversions == ["≈ 2 × 8.59 GB "])
        #expect(rows["Material"]?.written == "steel and acrylic")
        #expect(rows["Hinges"]?.written == "2")
        for label in ["Material", "Hinges", "Firmware", "Storage", "Label", "Range", "Note"] {
            #expect(rows[label]?.conversions == [], "\(label)")
        }
        #expect(rows["Firmware"]?.written == "1.2.3 GB")
        #expect(rows["Storage"]?.written == "4.7 XB")
        #expect(rows["Range"]?.written == "5 °C - 50 °F")
        // The switch and its script come only with metric or imperial conversions to switch.
        #expect(html.contains(#"data-system="imperial""#))
        #expect(html.contains(#"class="unit-switch""#))
        #expect(html.contains("units.js"))
        #expect(TextFile.exists(output + "/assets/units.js"))
    }

    @Test("A part whose values have no metric or imperial conversion gets no switch")
    func noSwitch() throws {
        let output = Fixtures.temporaryFolder() + "/public"
        try SiteBuilder(siteRoot: Fixtures.demoSite, output: output, cacheFolder: output + ".cache").build()
        let motor = Fixtures.read(output + "/machines/desk-fan/parts/motor/index.html")
        #expect(try Self.rows(motor)["Speed"]?.conversions == ["≈ 21.67 Hz"])
        #expect(!motor.contains("unit-switch"))
        #expect(!motor.contains("units.js"))
        let disk = Fixtures.read(output + "/machines/personal-computer/parts/hard-disk/index.html")
        #expect(try Self.rows(disk)["Size"]?.conversions == ["= 88.9 mm"])
        #expect(disk.contains(#"data-system="metric""#))
    }
}
