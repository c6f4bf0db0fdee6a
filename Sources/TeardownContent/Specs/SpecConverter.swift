import Foundation

/// A spec value in another unit, as shown beside the value as written.
public struct SpecConversion: Sendable, Hashable {
    /// "4.72 in", "41–122 °F", "2 × 7.45 GiB".
    public let text: String
    /// Whether the shown numbers are the converted ones exactly, so the page can say "=" not "≈".
    public let exact: Bool
    public let unit: SpecUnit
}

/// Converts spec quantities with Foundation's `Measurement`, into the units a reader of the
/// other system would use: inches or feet for millimetres, °F and K for °C, GiB for GB.
public enum SpecConverter {
    public static func conversions(of quantity: SpecQuantity) -> [SpecConversion] {
        guard let unit = quantity.unit, let dimension = unit.dimension else { return [] }
        let size = quantity.values.map(abs).max() ?? 0
        return targets(for: unit, size: Measurement(value: size, unit: dimension)).compactMap { target in
            guard let targetDimension = target.dimension else { return nil }
            var exact = !quantity.approximate, finite = true
            let form = quantity.replacingValues { value in
                var converted = Measurement(value: value, unit: dimension).converted(to: targetDimension).value
                // Offsets such as 273.15 leave rounding noise where the answer is zero: 32 °F is 0 °C.
                if abs(converted) < 1e-9 { converted = 0 }
                finite = finite && converted.isFinite
                let shown = rounded(converted)
                if abs(shown - converted) > 1e-9 * max(1, abs(converted)) { exact = false }
                return shown
            }
            guard finite else { return nil }
            return SpecConversion(text: text(of: form, symbol: target.symbol), exact: exact, unit: target)
        }
    }

    /// The units to show a value in, chosen by the size of its largest number so that both ends
    /// of a range, or all dimensions, share one unit.
    package static func targets(for unit: SpecUnit, size: Measurement<Dimension>) -> [SpecUnit] {
        func inUnit(_ reference: Dimension) -> Double { size.converted(to: reference).value }
        let symbols: [String] = switch (unit.quantity, unit.system) {
        case (.length, .metric):
            // Below a tenth of a millimetre (wavelengths, coatings) inches say nothing useful.
            inUnit(UnitLength.meters) < 0.0001 ? [] : inUnit(UnitLength.meters) < 1 ? ["in"]
                : inUnit(UnitLength.meters) < 1000 ? ["ft"] : ["mi"]
        case (.length, .imperial):
            inUnit(UnitLength.meters) < 1 ? ["mm"] : inUnit(UnitLength.meters) < 1000 ? ["m"] : ["km"]
        case (.area, .metric): inUnit(UnitArea.squareFeet) < 1 ? ["in²"] : ["ft²"]
        case (.area, .imperial): inUnit(UnitArea.squareMeters) < 1 ? ["cm²"] : ["m²"]
        case (.volume, .metric):
            inUnit(UnitVolume.quarts) < 1 ? ["US fl oz"] : inUnit(UnitVolume.gallons) < 1 ? ["US qt"] : ["US gal"]
        case (.volume, .imperial): inUnit(UnitVolume.liters) < 1 ? ["ml"] : ["l"]
        case (.mass, .metric): inUnit(UnitMass.pounds) < 1 ? ["oz"] : ["lb"]
        case (.mass, .imperial): inUnit(UnitMass.kilograms) < 1 ? ["g"] : ["kg"]
        case (.temperature, _): ["°C", "°F", "K"].filter { $0 != unit.symbol }
        // Horsepower describes engines and motors, not a 5 W lamp.
        case (.power, .metric): inUnit(UnitPower.horsepower) < 1 ? [] : ["hp"]
        case (.power, .imperial): inUnit(UnitPower.kilowatts) < 1 ? ["W"] : ["kW"]
        case (.information, .decimal), (.information, .binary):
            [largest(in: family(of: unit, system: unit.system == .decimal ? .binary : .decimal), size: size)]
        case (.rotation, _): ["Hz"]
        case (.speed, .metric): ["mph"]
        case (.speed, .imperial): ["km/h"]
        case (.pressure, .metric): ["psi"]
        case (.pressure, .imperial): ["bar"]
        default: []
        }
        return symbols.map(SpecUnit.symbol)
    }

    /// Data sizes in one system, smallest first: bytes or bits, as the value was written.
    private static func family(of unit: SpecUnit, system: SpecUnit.System) -> [String] {
        let bits = unit.symbol.hasSuffix("bit")
        return switch (system, bits) {
        case (.binary, false): ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        case (.binary, true): ["bit", "Kibit", "Mibit", "Gibit"]
        case (_, false): ["B", "kB", "MB", "GB", "TB", "PB"]
        case (_, true): ["bit", "kbit", "Mbit", "Gbit"]
        }
    }

    /// The largest unit in which the size is still at least one: 4.7 GB is 4.38 GiB, not 4,482 MiB.
    private static func largest(in family: [String], size: Measurement<Dimension>) -> String {
        family.last { symbol in
            guard let dimension = SpecUnit.symbol(symbol).dimension else { return false }
            return size.converted(to: dimension).value >= 1
        } ?? family[0]
    }

    private static func text(of form: SpecQuantity.Form, symbol: String) -> String {
        let numbers = switch form {
        case .single(let value): format(value)
        case .range(let low, let high): "\(format(low))–\(format(high))"
        case .dimensions(let values): values.map(format).joined(separator: " × ")
        case .times(let count, let value): "\(format(count)) × \(format(value))"
        }
        return "\(numbers) \(symbol)"
    }

    /// Two decimals, or three significant digits below one: 4.72 in, 273.15 K, 0.0197 in.
    package static func rounded(_ value: Double) -> Double {
        let scale = pow(10, Double(decimals(for: value)))
        return (value * scale).rounded() / scale
    }

    private static func decimals(for value: Double) -> Int {
        let magnitude = abs(value)
        guard magnitude < 1, magnitude > 0 else { return 2 }
        return max(2, 2 - Int(floor(log10(magnitude))))
    }

    /// Without trailing zeros, without exponents, and the same in every locale.
    ///
    /// Written with integers: `String(format:)` showed in cold builds' profiles, as every part
    /// page shows its specs converted. Numbers too large for that use it still.
    package static func format(_ value: Double) -> String {
        let decimals = decimals(for: value)
        let scale = pow(10, Double(decimals))
        let scaled = (abs(value) * scale).rounded()
        if scaled < 1e15 {
            let units = Int64(scaled), divisor = Int64(scale)
            var text = (value < 0 && units != 0 ? "-" : "") + String(units / divisor)
            var fraction = String(units % divisor)
            fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + fraction }
            return text
        }
        var text = String(format: "%.\(decimals)f", rounded(value))
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
