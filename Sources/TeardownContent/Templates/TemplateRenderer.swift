import Foundation
import TeardownBase

/// Renders compiled templates against models: one pass over the nodes, names looked up by
/// direct calls to each model's `value(named:)`, with no casts.
package struct TemplateRenderer {
    private let templates: [String: [TemplateNode]]
    private var output = ""
    private var stack: [Context]
    /// What the current standalone partials and blocks indent each line by.
    private var indent = ""
    private var atLineStart = true
    private var overrides: [String: [TemplateNode]] = [:]
    private var depth = 0

    /// Partials nested deeper than this render nothing: a template that includes itself
    /// unconditionally would otherwise never finish.
    package static let maximumDepth = 100

    private struct Context {
        package let value: TemplateValue
        /// The element's position when the value is an element of a list; -1 otherwise.
        package let index: Int
        package let count: Int
    }

    private init(templates: [String: [TemplateNode]], model: TemplateValue) {
        self.templates = templates
        stack = [Context(value: model, index: -1, count: 0)]
    }

    package static func render(_ name: String, _ model: TemplateValue, templates: [String: [TemplateNode]],
                       capacity: Int = 0) -> String {
        var renderer = TemplateRenderer(templates: templates, model: model)
        renderer.output.reserveCapacity(capacity)
        renderer.include(name, indent: "", overrides: [:])
        return renderer.output
    }

    private mutating func render(_ nodes: [TemplateNode]) {
        for node in nodes {
            switch node {
            case .text(let text):
                write(text: text)
            case .variable(let name, let escaped):
                if let text = resolve(name).text { write(data: text, escaped: escaped) }
            case .section(let name, let children, let inverted):
                let value = resolve(name)
                if inverted {
                    if !value.isTruthy { render(children) }
                    continue
                }
                switch value {
                case .list(let list):
                    for index in 0..<list.count {
                        stack.append(Context(value: list.element(at: index), index: index, count: list.count))
                        render(children)
                        stack.removeLast()
                    }
                case .bool(true):
                    render(children)
                case .int, .double, .text, .object:
                    stack.append(Context(value: value, index: -1, count: 0))
                    render(children)
                    stack.removeLast()
                case .missing, .null, .bool:
                    break
                }
            case .partial(let name, let indent):
                include(name, indent: indent, overrides: overrides)
            case .parent(let name, let blocks, let indent):
                // The outermost template's blocks win over those of the parents it extends.
                include(name, indent: indent, overrides: blocks.merging(overrides) { _, outer in outer })
            case .block(let name, let defaults, let indent, let overrideIndent):
                let outer = self.indent
                if let override = overrides[name] {
                    self.indent += indent + overrideIndent
                    render(override)
                } else {
                    self.indent += indent
                    render(defaults)
                }
                self.indent = outer
            }
        }
    }

    private mutating func include(_ name: String, indent: String, overrides: [String: [TemplateNode]]) {
        guard let nodes = templates[name], depth < Self.maximumDepth else { return }
        let (outerIndent, outerOverrides) = (self.indent, self.overrides)
        self.indent += indent
        self.overrides = overrides
        depth += 1
        render(nodes)
        depth -= 1
        (self.indent, self.overrides) = (outerIndent, outerOverrides)
    }

    // MARK: Output

    /// Template text: a line it starts gets the current indentation.
    private mutating func write(text: String) {
        guard !text.isEmpty else { return }
        if indent.isEmpty {
            output += text
        } else {
            for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if offset > 0 {
                    output += "\n"
                    atLineStart = true
                }
                if atLineStart, !line.isEmpty {
                    output += indent
                    atLineStart = false
                }
                output += line
            }
        }
        atLineStart = text.utf8.last == UInt8(ascii: "\n")
    }

    /// A value: indented where it starts a line, but its own lines are left as they are.
    private mutating func write(data: String, escaped: Bool) {
        guard !data.isEmpty else { return }
        if atLineStart, !indent.isEmpty { output += indent }
        atLineStart = false
        output += escaped ? HTMLEscaping.escape(data) : data
    }

    // MARK: Lookup

    private func resolve(_ name: TemplateName) -> TemplateValue {
        if name.ofElement, let transform = name.transform {
            guard let element = stack.last(where: { $0.index >= 0 }) else { return .missing }
            return Self.apply(transform, element: element.index, of: element.count)
        }
        var value = TemplateValue.missing
        if let first = name.path.first {
            for context in stack.reversed() {
                guard case .object(let object) = context.value else { continue }
                let found = object.value(named: first)
                if case .missing = found { continue }
                value = found
                break
            }
            for component in name.path.dropFirst() {
                guard case .object(let object) = value else { return .missing }
                value = object.value(named: component)
            }
        } else {
            value = stack[stack.count - 1].value
        }
        guard let transform = name.transform else { return value }
        return Self.apply(transform, to: value)
    }

    private static func apply(_ transform: TemplateTransform, element index: Int, of count: Int) -> TemplateValue {
        switch transform {
        case .first: .bool(index == 0)
        case .last: .bool(index == count - 1)
        case .index: .int(index)
        case .even: .bool(index % 2 == 0)
        case .odd: .bool(index % 2 == 1)
        default: .missing
        }
    }

    private static func apply(_ transform: TemplateTransform, to value: TemplateValue) -> TemplateValue {
        switch (transform, value) {
        case (.empty, .list(let list)): .bool(list.count == 0)
        case (.empty, .text(let text)): .bool(text.isEmpty)
        case (.empty, .missing), (.empty, .null): .bool(true)
        case (.count, .list(let list)): .int(list.count)
        case (.count, .text(let text)): .int(text.count)
        case (.first, .list(let list)): list.count > 0 ? list.element(at: 0) : .null
        case (.last, .list(let list)): list.count > 0 ? list.element(at: list.count - 1) : .null
        case (.reversed, .list(let list)): .list(ReversedList(base: list))
        case (.reversed, .text(let text)): .text(String(text.reversed()))
        case (.uppercased, .text(let text)): .text(text.uppercased())
        case (.lowercased, .text(let text)): .text(text.lowercased())
        case (.capitalized, .text(let text)): .text(text.capitalized)
        case (.equalzero, .int(let number)): .bool(number == 0)
        case (.plusone, .int(let number)): .int(number + 1)
        case (.minusone, .int(let number)): .int(number - 1)
        case (.even, .int(let number)): .bool(number % 2 == 0)
        case (.odd, .int(let number)): .bool(number % 2 != 0)
        default: .null
        }
    }
}

private struct ReversedList: TemplateList {
    package let base: any TemplateList
    package var count: Int { base.count }
    package func element(at index: Int) -> TemplateValue { base.element(at: base.count - 1 - index) }
}
