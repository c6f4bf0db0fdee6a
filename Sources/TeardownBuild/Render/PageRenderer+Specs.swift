import Foundation
import TeardownContent

extension PageRenderer {
    /// A part's specifications as written, each with its conversions.
    package func specRows(_ specs: [Spec]) -> [SpecModel] {
        specs.map { spec in
            let quantity = spec.reading.quantity
            let conversions = quantity.map(SpecConverter.conversions(of:)) ?? []
            return SpecModel(
                label: spec.label, value: spec.value, note: quantity?.unit.flatMap(Self.note(for:)),
                conversions: conversions.map {
                    SpecConversionModel(relation: $0.exact ? "=" : "≈", text: $0.text, note: Self.note(for: $0.unit),
                                        system: $0.unit.system == .metric || $0.unit.system == .imperial
                                            ? $0.unit.system.rawValue : nil)
                })
        }
    }

    /// Says which kind of data size a value is in, since "GB" alone is read both ways.
    private static func note(for unit: SpecUnit) -> String? {
        switch unit.system {
        case .decimal: "decimal"
        case .binary: "binary"
        default: nil
        }
    }
}
