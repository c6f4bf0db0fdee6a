import Foundation
import Testing
@testable import TeardownContent

/// Conversions checked against values defined by the units themselves, not by our code.
@Suite("Spec conversions")
struct SpecConverterTests {
    /// The exact value of `text` converted into `symbol`, through Foundation.
    static func value(of text: String, in symbol: String) throws -> [Double] {
        let quantity = try #require(try SpecParser.read(text).get().quantity)
        let target = try #require(SpecUnit.symbol(symbol).dimension)
        return quantity.measurements.map { $0.converted(to: target).value }
    }

    static func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) }
    }

    @Test("Known equalities hold", arguments: [
        ("0 °C", "°F", [32.0]), ("0 °C", "K", [273.15]), ("32 °F", "°C", [0]), ("-40 °C", "°F", [-40]),
        ("100 °C", "°F", [212]), ("273.15 K", "°C", [0]), ("98.6 °F", "°C", [37]),
        ("1 GiB", "GB", [1.073741824]), ("1 GB", "MB", [1000]), ("1 KiB", "B", [1024]), ("1 TB", "GiB", [931.3225746154785]),
        ("1 in", "mm", [25.4]), ("1 ft", "in", [12]), ("1 mi", "km", [1.609344]), ("1 lb", "g", [453.59237]), ("16 oz", "lb", [1]),
        ("1 US gal", "l", [3.785411784]), ("5-50 °C", "°F", [41, 122]), ("-40 to 85 °C", "K", [233.15, 358.15]),
        ("120 × 120 × 25 mm", "cm", [12, 12, 2.5]), ("2 × 8 GiB", "GiB", [8]), ("7200 rpm", "Hz", [120]),
        ("1 hp", "W", [745.69987158227022]), ("1 bar", "kPa", [100]), ("1 psi", "kPa", [6.894757293168361]),
        ("128 US fl oz", "US gal", [1]),
    ])
    func equalities(_ text: String, _ symbol: String, _ expected: [Double]) throws {
        let actual = try Self.value(of: text, in: symbol)
        #expect(Self.close(actual, expected), "\(text) in \(symbol): \(actual), expected \(expected)")
    }

    @Test("A value is shown in the units of the other system, exact conversions with =", arguments: [
        ("0 °C", ["= 32 °F", "= 273.15 K"]),
        ("32 °F", ["= 0 °C", "= 273.15 K"]),
        ("5-50 °C", ["= 41–122 °F", "= 278.15–323.15 K"]),
        ("1 in", ["= 25.4 mm"]),
        ("3.5 in", ["= 88.9 mm"]),
        ("120 mm", ["≈ 4.72 in"]),
        ("0.8 mm", ["≈ 0.0315 in"]),
        ("1.5 m", ["≈ 4.92 ft"]),
        ("120 × 120 × 25 mm", ["≈ 4.72 × 4.72 × 0.984 in"]),
        ("1.2 kg", ["≈ 2.65 lb"]),
        ("1 lb", ["≈ 453.59 g"]),
        ("1 mi", ["≈ 1.61 km"]),
        ("200 g", ["≈ 7.05 oz"]),
        ("1.7 l", ["≈ 1.8 US qt"]),
        ("4.7 GB", ["≈ 4.38 GiB"]),
        ("1 GiB", ["≈ 1.07 GB"]),
        ("8 GiB", ["≈ 8.59 GB"]),
        ("1 TB", ["≈ 931.32 GiB"]),
        ("2 × 8 GiB", ["≈ 2 × 8.59 GB"]),
        ("7200 rpm", ["= 120 Hz"]),
        ("2200 W", ["≈ 2.95 hp"]),
        ("~100 °C", ["≈ 212 °F", "≈ 373.15 K"]),
        // No conversion says nothing useful here: small power in horsepower, nanometres in inches.
        ("45 W", []), ("650 nm", []), ("12 V", []), ("3.4 GHz", []), ("24 Ω", []), ("4", []), ("16x", []),
    ])
    func shown(_ text: String, _ expected: [String]) throws {
        let quantity = try #require(try SpecParser.read(text).get().quantity)
        let shown = SpecConverter.conversions(of: quantity).map { "\($0.exact ? "=" : "≈") \($0.text)" }
        #expect(shown == expected)
    }

    @Test("Data sizes say whether they are decimal or binary, and the switch leaves them alone")
    func dataSizeSystems() throws {
        let decimal = try #require(try SpecParser.read("4.7 GB").get().quantity)
        #expect(decimal.unit?.system == .decimal)
        #expect(SpecConverter.conversions(of: decimal).map(\.unit.system) == [.binary])
        let binary = try #require(try SpecParser.read("512 MiB").get().quantity)
        #expect(binary.unit?.system == .binary)
        #expect(SpecConverter.conversions(of: binary).map(\.text) == ["536.87 MB"])
    }

    @Test("Numbers are written the same in every locale, without exponents", arguments: [
        (0.0, "0"), (-0.001, "-0.001"), (1_000_000, "1000000"), (0.000123456, "0.000123"), (2.5, "2.5"), (-40.0000001, "-40"),
    ])
    func format(_ value: Double, _ expected: String) {
        #expect(SpecConverter.format(value) == expected)
    }

    @Test("Numbers are written as printf writes them, without trailing zeros, for random values of every size")
    func formatAgreesWithPrintf() {
        for _ in 0..<20_000 {
            let value = Double.random(in: -1...1) * pow(10, Double.random(in: -6...17))
            var expected = String(format: "%.\(value == 0 || abs(value) >= 1 ? 2 : max(2, 2 - Int(floor(log10(abs(value))))))f",
                                  SpecConverter.rounded(value))
            if expected.contains(".") {
                while expected.hasSuffix("0") { expected.removeLast() }
                if expected.hasSuffix(".") { expected.removeLast() }
            }
            if expected == "-0" { expected = "0" }
            #expect(SpecConverter.format(value) == expected, "\(value)")
        }
    }
}
