/// What a template name resolves to. Models answer lookups with these values, so rendering
/// switches over a closed set of cases instead of casting an `Any` to protocols, as
/// swift-mustache's lookups do on every name (Benchmarks/README.md has the profile).
package enum TemplateValue {
    /// The name is not a field of the object asked; lookup goes on down the context stack.
    case missing
    /// The field exists and has no value: it renders as nothing and stops the lookup.
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case text(String)
    case object(any TemplateObject)
    case list(any TemplateList)

    /// Whether a section over this value renders (Mustache's truthiness: only false, null and
    /// an empty list are false; an empty string and zero are values like any other).
    package var isTruthy: Bool {
        switch self {
        case .missing, .null: false
        case .bool(let value): value
        case .list(let list): list.count > 0
        case .int, .double, .text, .object: true
        }
    }

    /// The text an interpolation writes, before escaping.
    package var text: String? {
        switch self {
        case .missing, .null, .object, .list: nil
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .text(let value): value
        }
    }
}

/// A model a template can look names up in.
package protocol TemplateObject {
    /// The field `name`, or `.missing` when the model has no such field.
    func value(named name: String) -> TemplateValue
}

/// A list a section iterates over.
package protocol TemplateList {
    var count: Int { get }
    func element(at index: Int) -> TemplateValue
}

/// A Swift value a model field can hold.
package protocol TemplateRepresentable {
    var templateValue: TemplateValue { get }
}

extension TemplateRepresentable where Self: TemplateObject {
    package var templateValue: TemplateValue { .object(self) }
}

extension String: TemplateRepresentable {
    package var templateValue: TemplateValue { .text(self) }
}

extension Int: TemplateRepresentable {
    package var templateValue: TemplateValue { .int(self) }
}

extension Double: TemplateRepresentable {
    package var templateValue: TemplateValue { .double(self) }
}

extension Bool: TemplateRepresentable {
    package var templateValue: TemplateValue { .bool(self) }
}

extension Optional: TemplateRepresentable where Wrapped: TemplateRepresentable {
    package var templateValue: TemplateValue { self?.templateValue ?? .null }
}

extension Array: TemplateRepresentable where Element: TemplateRepresentable {
    package var templateValue: TemplateValue { .list(self) }
}

extension Array: TemplateList where Element: TemplateRepresentable {
    package func element(at index: Int) -> TemplateValue { self[index].templateValue }
}
