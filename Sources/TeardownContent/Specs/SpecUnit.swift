import Foundation
import TeardownBase

/// A unit a specification value can be written in: the symbol shown, what it measures and
/// which system it belongs to. Conversions go through Foundation's `Dimension` for the unit.
public struct SpecUnit: Sendable, Hashable, Codable {
    public enum Quantity: String, Sendable, Codable {
        case length, area, volume, mass, temperature, information, power, energy, voltage, current
        case charge, resistance, frequency, rotation, speed, pressure, duration, angle
        /// Units Foundation has no dimension for: shown as written, never converted.
        case level, percent, factor, count
    }

    /// Which conversions a value gets, and which of them the metric/imperial switch hides.
    public enum System: String, Sendable, Codable {
        case metric, imperial
        /// Data sizes in powers of 1000 (kB, MB, GB) and of 1024 (KiB, MiB, GiB).
        case decimal, binary
        case neutral
    }

    /// As shown in conversions: "mm", "°F", "GiB", "US gal".
    public let symbol: String
    public let quantity: Quantity
    public let system: System

    /// Foundation's unit, through which every conversion goes; nil for counts, percentages,
    /// factors and sound levels.
    public var dimension: Dimension? { Self.table[symbol]?.dimension }

    /// A count of things written after the number, such as "4 cores".
    package static func count(_ noun: String) -> SpecUnit { SpecUnit(symbol: noun, quantity: .count, system: .neutral) }

    /// The unit written as `alias`, if it is one this reader knows.
    package static func named(_ alias: String) -> SpecUnit? { aliases[alias] }

    /// Every alias, longest first, so that "fl oz" wins over "oz" and "°C" over "°".
    package static let aliasesByLength: [String] = aliases.keys.sorted { ($0.count, $0) > ($1.count, $1) }

    /// Symbols that are not units of their own but are often written for one.
    package static let hints: [String: String] = [
        "KB": "write kB for 1000 bytes or KiB for 1024 bytes",
        "kb": "write kB for 1000 bytes or KiB for 1024 bytes",
        "Kb": "write kbit for 1000 bits or Kibit for 1024 bits",
        "mb": "write MB for megabytes or Mbit for megabits",
        "Mb": "write MB for megabytes or Mbit for megabits",
        "gb": "write GB for gigabytes or Gbit for gigabits",
        "Gb": "write GB for gigabytes or Gbit for gigabits",
        "C": "write °C for degrees Celsius",
        "F": "write °F for degrees Fahrenheit",
        "deg": "write °C, °F or ° for an angle",
        "kgs": "write kg",
        "sec": "write s",
    ]

    /// What to write instead of an unknown unit: the table's hint for a common slip, the unit
    /// it names in other letters ("Volts", "KG"), or one a slip away ("kgg", "mmm").
    package static func hint(for word: String) -> String? {
        if let hint = hints[word] { return hint }
        if let unit = aliases[word.lowercased()] { return "write \(unit.symbol)" }
        guard word.count >= 3, let close = KeySuggestion.closest(to: word, in: aliasesByLength), let unit = aliases[close] else { return nil }
        return "write \(unit.symbol)"
    }

    // MARK: - The table

    private struct Definition {
        package let unit: SpecUnit
        package let dimension: Dimension?
        package let aliases: [String]
    }

    private static func define(
        _ symbol: String, _ quantity: Quantity, _ system: System, _ dimension: Dimension?, _ aliases: [String] = []
    ) -> Definition {
        Definition(unit: SpecUnit(symbol: symbol, quantity: quantity, system: system),
                   dimension: dimension, aliases: [symbol] + aliases)
    }

    /// Foundation has no revolutions per minute: one is a sixtieth of a hertz.
    private static let revolutionsPerMinute = UnitFrequency(symbol: "rpm", converter: UnitConverterLinear(coefficient: 1.0 / 60))

    /// Nor watt-hours: one is 3600 joules.
    private static let wattHours = UnitEnergy(symbol: "Wh", converter: UnitConverterLinear(coefficient: 3600))

    private static let definitions: [Definition] = [
        define("nm", .length, .metric, UnitLength.nanometers),
        define("µm", .length, .metric, UnitLength.micrometers, ["μm", "um"]),
        define("mm", .length, .metric, UnitLength.millimeters, ["millimetre", "millimetres", "millimeter", "millimeters"]),
        define("cm", .length, .metric, UnitLength.centimeters, ["centimetre", "centimetres", "centimeter", "centimeters"]),
        define("m", .length, .metric, UnitLength.meters, ["metre", "metres", "meter", "meters"]),
        define("km", .length, .metric, UnitLength.kilometers),
        define("in", .length, .imperial, UnitLength.inches, ["inch", "inches", "\"", "″"]),
        define("ft", .length, .imperial, UnitLength.feet, ["foot", "feet", "′"]),
        define("yd", .length, .imperial, UnitLength.yards),
        define("mi", .length, .imperial, Exact.miles, ["mile", "miles"]),

        define("mm²", .area, .metric, UnitArea.squareMillimeters, ["mm2", "sq mm"]),
        define("cm²", .area, .metric, UnitArea.squareCentimeters, ["cm2", "sq cm"]),
        define("m²", .area, .metric, UnitArea.squareMeters, ["m2", "sq m"]),
        define("in²", .area, .imperial, UnitArea.squareInches, ["in2", "sq in"]),
        define("ft²", .area, .imperial, Exact.squareFeet, ["ft2", "sq ft"]),

        define("ml", .volume, .metric, UnitVolume.milliliters, ["mL"]),
        define("cl", .volume, .metric, UnitVolume.centiliters, ["cL"]),
        define("l", .volume, .metric, UnitVolume.liters, ["L", "litre", "litres", "liter", "liters"]),
        define("cm³", .volume, .metric, UnitVolume.cubicCentimeters, ["cm3", "cc"]),
        define("m³", .volume, .metric, UnitVolume.cubicMeters, ["m3"]),
        define("US fl oz", .volume, .imperial, Exact.fluidOunces, ["fl oz", "fl. oz."]),
        define("US qt", .volume, .imperial, Exact.quarts, ["qt"]),
        define("US gal", .volume, .imperial, Exact.gallons, ["gal"]),
        define("imp gal", .volume, .imperial, UnitVolume.imperialGallons, ["UK gal"]),

        define("mg", .mass, .metric, UnitMass.milligrams),
        define("g", .mass, .metric, UnitMass.grams, ["gram", "grams"]),
        define("kg", .mass, .metric, UnitMass.kilograms, ["kilogram", "kilograms"]),
        define("t", .mass, .metric, UnitMass.metricTons),
        define("oz", .mass, .imperial, Exact.ounces, ["ounce", "ounces"]),
        define("lb", .mass, .imperial, Exact.pounds, ["lbs", "pound", "pounds"]),

        define("°C", .temperature, .metric, UnitTemperature.celsius, ["℃", "° C", "degC"]),
        define("°F", .temperature, .imperial, UnitTemperature.fahrenheit, ["℉", "° F", "degF"]),
        define("K", .temperature, .neutral, UnitTemperature.kelvin),

        define("B", .information, .neutral, UnitInformationStorage.bytes, ["byte", "bytes"]),
        define("kB", .information, .decimal, UnitInformationStorage.kilobytes),
        define("MB", .information, .decimal, UnitInformationStorage.megabytes),
        define("GB", .information, .decimal, UnitInformationStorage.gigabytes),
        define("TB", .information, .decimal, UnitInformationStorage.terabytes),
        define("PB", .information, .decimal, UnitInformationStorage.petabytes),
        define("KiB", .information, .binary, UnitInformationStorage.kibibytes),
        define("MiB", .information, .binary, UnitInformationStorage.mebibytes),
        define("GiB", .information, .binary, UnitInformationStorage.gibibytes),
        define("TiB", .information, .binary, UnitInformationStorage.tebibytes),
        define("PiB", .information, .binary, UnitInformationStorage.pebibytes),
        define("bit", .information, .neutral, UnitInformationStorage.bits, ["bits"]),
        define("kbit", .information, .decimal, UnitInformationStorage.kilobits),
        define("Mbit", .information, .decimal, UnitInformationStorage.megabits),
        define("Gbit", .information, .decimal, UnitInformationStorage.gigabits),
        define("Kibit", .information, .binary, UnitInformationStorage.kibibits),
        define("Mibit", .information, .binary, UnitInformationStorage.mebibits),
        define("Gibit", .information, .binary, UnitInformationStorage.gibibits),

        define("mW", .power, .metric, UnitPower.milliwatts),
        define("W", .power, .metric, UnitPower.watts, ["watt", "watts"]),
        define("kW", .power, .metric, UnitPower.kilowatts),
        define("hp", .power, .imperial, Exact.horsepower),

        define("J", .energy, .neutral, UnitEnergy.joules),
        define("kJ", .energy, .neutral, UnitEnergy.kilojoules),
        define("Wh", .energy, .neutral, wattHours),
        define("kWh", .energy, .neutral, UnitEnergy.kilowattHours),
        define("mAh", .charge, .neutral, UnitElectricCharge.milliampereHours),
        define("Ah", .charge, .neutral, UnitElectricCharge.ampereHours),

        define("mV", .voltage, .neutral, UnitElectricPotentialDifference.millivolts),
        define("V", .voltage, .neutral, UnitElectricPotentialDifference.volts, ["VAC", "VDC", "volt", "volts"]),
        define("kV", .voltage, .neutral, UnitElectricPotentialDifference.kilovolts),
        define("mA", .current, .neutral, UnitElectricCurrent.milliamperes),
        define("A", .current, .neutral, UnitElectricCurrent.amperes, ["amp", "amps", "ampere", "amperes"]),
        define("mΩ", .resistance, .neutral, UnitElectricResistance.milliohms),
        define("Ω", .resistance, .neutral, UnitElectricResistance.ohms, ["ohm", "ohms", "Ohm"]),
        define("kΩ", .resistance, .neutral, UnitElectricResistance.kiloohms, ["kohm"]),
        define("MΩ", .resistance, .neutral, UnitElectricResistance.megaohms),

        define("Hz", .frequency, .neutral, UnitFrequency.hertz, ["hertz"]),
        define("kHz", .frequency, .neutral, UnitFrequency.kilohertz),
        define("MHz", .frequency, .neutral, UnitFrequency.megahertz),
        define("GHz", .frequency, .neutral, UnitFrequency.gigahertz),
        define("rpm", .rotation, .neutral, revolutionsPerMinute, ["RPM", "r/min"]),

        define("m/s", .speed, .metric, UnitSpeed.metersPerSecond),
        define("km/h", .speed, .metric, UnitSpeed.kilometersPerHour, ["kph"]),
        define("mph", .speed, .imperial, UnitSpeed.milesPerHour),

        define("Pa", .pressure, .metric, UnitPressure.newtonsPerMetersSquared),
        define("hPa", .pressure, .metric, UnitPressure.hectopascals),
        define("kPa", .pressure, .metric, UnitPressure.kilopascals),
        define("MPa", .pressure, .metric, UnitPressure.megapascals),
        define("mbar", .pressure, .metric, UnitPressure.millibars),
        define("bar", .pressure, .metric, UnitPressure.bars),
        define("psi", .pressure, .imperial, Exact.poundsPerSquareInch),

        define("ms", .duration, .neutral, UnitDuration.milliseconds),
        define("s", .duration, .neutral, UnitDuration.seconds, ["second", "seconds"]),
        define("min", .duration, .neutral, UnitDuration.minutes, ["minute", "minutes"]),
        define("h", .duration, .neutral, UnitDuration.hours, ["hour", "hours"]),

        define("°", .angle, .neutral, UnitAngle.degrees, ["degrees"]),

        define("dB", .level, .neutral, nil, ["dBA", "dB(A)"]),
        define("%", .percent, .neutral, nil),
        define("×", .factor, .neutral, nil, ["x", "X"]),
    ]

    private static let table: [String: Definition] = Dictionary(
        uniqueKeysWithValues: definitions.map { ($0.unit.symbol, $0) })

    private static let aliases: [String: SpecUnit] = Dictionary(
        uniqueKeysWithValues: definitions.flatMap { definition in definition.aliases.map { ($0, definition.unit) } })

    /// The unit with this symbol; for conversion targets, which are always in the table.
    package static func symbol(_ symbol: String) -> SpecUnit {
        guard let definition = table[symbol] else { preconditionFailure("no unit '\(symbol)'") }
        return definition.unit
    }
}

/// Foundation rounds some customary units to six digits (a pound is 0.453592 kg, a mile 1609.34 m),
/// which would make "1 lb" read as 453.59 g and wrongly show a rounded result as exact. These are
/// the same Foundation dimensions with the factors the units are defined by.
private enum Exact {
    // The international yard and pound (1959): 1 yd = 0.9144 m, 1 lb = 0.45359237 kg.
    package static let miles = UnitLength(symbol: "mi", converter: UnitConverterLinear(coefficient: 1609.344))
    package static let squareFeet = UnitArea(symbol: "ft²", converter: UnitConverterLinear(coefficient: 0.09290304))
    package static let pounds = UnitMass(symbol: "lb", converter: UnitConverterLinear(coefficient: 0.45359237))
    package static let ounces = UnitMass(symbol: "oz", converter: UnitConverterLinear(coefficient: 0.45359237 / 16))
    // The US gallon is 231 cubic inches; Foundation's volumes are in litres.
    package static let gallons = UnitVolume(symbol: "gal", converter: UnitConverterLinear(coefficient: 3.785411784))
    package static let quarts = UnitVolume(symbol: "qt", converter: UnitConverterLinear(coefficient: 3.785411784 / 4))
    package static let fluidOunces = UnitVolume(symbol: "fl oz", converter: UnitConverterLinear(coefficient: 3.785411784 / 128))
    // Mechanical horsepower: 550 foot-pounds-force per second.
    package static let horsepower = UnitPower(symbol: "hp", converter: UnitConverterLinear(coefficient: 745.69987158227022))
    // Pound-force (0.45359237 kg × 9.80665 m/s²) per square inch (0.0254² m²), in pascals.
    package static let poundsPerSquareInch = UnitPressure(
        symbol: "psi", converter: UnitConverterLinear(coefficient: 0.45359237 * 9.80665 / (0.0254 * 0.0254)))
}
