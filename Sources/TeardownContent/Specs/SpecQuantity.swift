import Foundation

/// How a specification value reads: plain text such as "ATX mid tower", or a quantity.
public enum SpecReading: Sendable, Hashable {
    case text
    case quantity(SpecQuantity)

    public var quantity: SpecQuantity? {
        if case .quantity(let quantity) = self { quantity } else { nil }
    }
}

/// A number, a range or a set of dimensions with one unit, as parsed from a spec value.
public struct SpecQuantity: Sendable, Hashable, Codable {
    public enum Form: Sendable, Hashable {
        /// "4.7 GB"
        case single(Double)
        /// "5-50 °C", "-40 to 85 °C"
        case range(Double, Double)
        /// "120 × 120 × 25 mm": every number in the unit.
        case dimensions([Double])
        /// "2 × 8 GiB": a count of things of one size; only the size has the unit.
        case times(Double, Double)
    }

    public let form: Form
    /// nil for a bare number such as "4".
    public let unit: SpecUnit?
    /// Written with "~" or "≈".
    public let approximate: Bool

    /// The numbers that carry the unit, in order.
    public var values: [Double] {
        switch form {
        case .single(let value): [value]
        case .range(let low, let high): [low, high]
        case .dimensions(let values): values
        case .times(_, let value): [value]
        }
    }

    /// The same form with every number carrying the unit replaced, in order.
    package func replacingValues(_ transform: (Double) -> Double) -> Form {
        switch form {
        case .single(let value): .single(transform(value))
        case .range(let low, let high): .range(transform(low), transform(high))
        case .dimensions(let values): .dimensions(values.map(transform))
        case .times(let count, let value): .times(count, transform(value))
        }
    }

    /// Each number as a Foundation measurement; empty when the unit has no dimension.
    public var measurements: [Measurement<Dimension>] {
        guard let dimension = unit?.dimension else { return [] }
        return values.map { Measurement(value: $0, unit: dimension) }
    }
}
