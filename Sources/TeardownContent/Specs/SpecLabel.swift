import TeardownBase

/// What a spec's label asks its value to measure, for the labels whose meaning is plain: a
/// width is a length whatever it is the width of. "Width: 300 kg" reads as a quantity, and
/// "Length: 300 furlongs" as a count of furlongs; only the label says either is a slip.
enum SpecLabel {
    private static let asked: [String: SpecUnit.Quantity] = [
        "length": .length, "width": .length, "height": .length, "depth": .length, "diameter": .length,
        "thickness": .length, "radius": .length, "mass": .mass, "weight": .mass, "voltage": .voltage,
        "power": .power, "current": .current, "frequency": .frequency, "temperature": .temperature,
        "resistance": .resistance, "pressure": .pressure,
    ]

    /// The quantity `label` asks for, by its last word ("Blade diameter": a length); nil when it says none.
    static func quantity(asked label: String) -> SpecUnit.Quantity? {
        label.lowercased().split { !$0.isLetter }.last.flatMap { asked[String($0)] }
    }

    /// Why `reading` does not fit `label`, or nil when it does (or the label asks nothing).
    static func problem(label: String, value: String, reading: SpecReading) -> Problem? {
        guard let expected = quantity(asked: label), let unit = reading.quantity?.unit, unit.quantity != expected else { return nil }
        if unit.quantity == .count {
            return .specValue(label: label, value: value, reason: SpecValueProblem.unknownUnit(unit.symbol, hint: SpecUnit.hint(for: unit.symbol)).reason)
        }
        return .specDimension(label: label, value: value, measures: "\(article(unit.quantity)) ('\(unit.symbol)')",
                              expected: article(expected))
    }

    private static func article(_ quantity: SpecUnit.Quantity) -> String {
        switch quantity {
        case .information: "a data size"
        case .rotation: "a rotation speed"
        case .level: "a sound level"
        case .percent: "a percentage"
        case .count: "a count"
        case .energy, .length, .mass, .temperature, .power, .voltage, .current, .charge, .resistance,
             .frequency, .speed, .pressure, .duration, .factor:
            "a " + quantity.rawValue
        case .area, .angle: "an " + quantity.rawValue
        case .volume: "a volume"
        }
    }
}
