import Testing
@testable import TeardownContent

@Suite("Reading spec values")
struct SpecParserTests {
    static func read(_ text: String) -> SpecReading? { try? SpecParser.read(text).get() }

    @Test("Quantities, ranges and dimensions", arguments: [
        ("4.7 GB", SpecQuantity.Form.single(4.7), "GB"),
        ("4.7GB", .single(4.7), "GB"),
        ("5-50 °C", .range(5, 50), "°C"),
        ("5 – 50 °C", .range(5, 50), "°C"),
        ("5 °C to 50 °C", .range(5, 50), "°C"),
        ("-40 to 85 °C", .range(-40, 85), "°C"),
        ("−40-−10 °C", .range(-40, -10), "°C"),
        ("120 mm", .single(120), "mm"),
        ("120 x 120 x 25 mm", .dimensions([120, 120, 25]), "mm"),
        ("120×120 mm", .dimensions([120, 120]), "mm"),
        ("2 × 8 GiB", .times(2, 8), "GiB"),
        ("1,200 rpm", .single(1200), "rpm"),
        ("12 V", .single(12), "V"),
        ("350 watts", .single(350), "W"),
        ("3.5\"", .single(3.5), "in"),
        ("0.5-1.7 l", .range(0.5, 1.7), "l"),
        ("16x", .single(16), "×"),
        ("45 dB(A)", .single(45), "dB"),
        ("80 %", .single(80), "%"),
        ("4 cores", .single(4), "cores"),
        ("120 mm (with the bracket)", .single(120), "mm"),
    ])
    func quantity(_ text: String, _ form: SpecQuantity.Form, _ symbol: String) throws {
        let quantity = try #require(Self.read(text)?.quantity, "\(text)")
        #expect(quantity.form == form)
        #expect(quantity.unit?.symbol == symbol)
    }

    @Test("A bare number is a count without a unit")
    func bareNumber() throws {
        let quantity = try #require(Self.read("4")?.quantity)
        #expect(quantity.form == .single(4))
        #expect(quantity.unit == nil)
    }

    @Test("Text stays text", arguments: ["ATX mid tower", "steel and acrylic", "80 Plus Gold", "12 V DC", "5, 10 and 15 W", "IEC C13"])
    func text(_ text: String) {
        #expect(Self.read(text) == .text)
    }

    @Test("Values that start like a quantity but are not one", arguments: [
        ("", SpecValueProblem.empty),
        ("   ", .empty),
        ("1.2.3 GB", .notANumber("1.2.3")),
        ("1,5 kg", .notANumber("1,5")),
        ("4.7 XB", .unknownUnit("XB", hint: nil)),
        ("120 mmm", .unknownUnit("mmm", hint: "write mm")),
        ("12 Volts", .unknownUnit("Volts", hint: "write V")),
        ("2 KG", .unknownUnit("KG", hint: "write kg")),
        ("512 KB", .unknownUnit("KB", hint: "write kB for 1000 bytes or KiB for 1024 bytes")),
        ("20 C", .unknownUnit("C", hint: "write °C for degrees Celsius")),
        ("5 °C - 50 °F", .mixedUnits("°C", "°F")),
        ("1 kg - 500 g", .mixedUnits("kg", "g")),
        ("5 °C - 50", .mixedUnits("°C", "")),
        ("50-5 °C", .reversedRange),
        ("2 GB × 4 GB", .notDimensions("GB")),
    ])
    func problem(_ text: String, _ problem: SpecValueProblem) {
        #expect(throws: problem) { try SpecParser.read(text).get() }
    }

    @Test("Every unit, at every size, reads back and converts into units that exist")
    func everyUnit() throws {
        for alias in SpecUnit.aliasesByLength {
            for number in ["0", "0.00004", "0.5", "1", "999", "1000000", "1e308", "99999999999999999999"] {
                guard case .success(let reading) = SpecParser.read("\(number) \(alias)") else { continue }
                if let quantity = reading.quantity {
                    #expect(quantity.unit == SpecUnit.named(alias) || number == "1e308", "\(number) \(alias)")
                    for conversion in SpecConverter.conversions(of: quantity) {
                        #expect(!conversion.text.contains("inf") && !conversion.text.contains("nan"), "\(conversion.text)")
                    }
                }
            }
        }
    }

    @Test("Arbitrary text never traps the reader")
    func arbitraryText() {
        let pieces = ["1", "2.5", "-", "−", "–", " ", "to", "x", "×", ".", ",", "°", "C", "mm", "GB", "GiB", "(", ")", "~",
                      "≈", "kg", "cores", "e", "0", "\"", "in", "/", "%", "\u{301}", "🔩", "\t"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var read = 0, texts = 0, problems = 0, tried = 0
        for _ in 0..<20_000 {
            tried += 1
            // Most start with a number, so that the quantity paths are the ones exercised.
            var text = tried % 4 == 0 ? "" : "12"
            for _ in 0..<6 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let index = Int(state >> 33) % (pieces.count + 1)
                if index < pieces.count { text += pieces[index] }
            }
            switch SpecParser.read(text) {
            case .success(.quantity(let quantity)):
                _ = SpecConverter.conversions(of: quantity)
                read += 1
            case .success(.text): texts += 1
            case .failure: problems += 1
            }
        }
        // Every outcome was reached, so every path ran on odd input.
        #expect(read > 20 && texts > 20 && problems > 20, "\(read) quantities, \(texts) texts, \(problems) problems")
    }
}
