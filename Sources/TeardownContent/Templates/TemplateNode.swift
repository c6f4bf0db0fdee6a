/// One piece of a compiled template.
package indirect enum TemplateNode: Sendable {
    case text(String)
    case variable(TemplateName, escaped: Bool)
    case section(TemplateName, [TemplateNode], inverted: Bool)
    /// `{{>name}}`; a standalone partial indents every line of its template by `indent`.
    case partial(String, indent: String)
    /// `{{<name}}…{{/name}}`: the template `name` with these blocks replaced.
    case parent(String, blocks: [String: [TemplateNode]], indent: String)
    /// `{{$name}}default{{/name}}`; its lines are indented by the whitespace before it, and an
    /// override's lines also by `overrideIndent`, the default text's own indentation.
    case block(String, [TemplateNode], indent: String, overrideIndent: String)
}

/// A name in a tag, split once when the template is compiled: `a.b.c`, `.`, or a transform
/// such as `empty(tags)` or `index()`.
package struct TemplateName: Sendable, Equatable {
    /// The dotted path; empty for `.`.
    package let path: [String]
    package let transform: TemplateTransform?
    /// A transform written with no argument, such as `index()`: it asks about the list
    /// element being rendered.
    package let ofElement: Bool
    /// The name as written, for matching a section's closing tag.
    package let written: String
}

/// The functions a tag may apply to a value: swift-mustache's, which themes written for
/// earlier versions of Teardown used, so that they keep working.
package enum TemplateTransform: String, Sendable {
    // Of a value
    case empty, count, first, last, reversed
    case uppercased, lowercased, capitalized
    case equalzero, plusone, minusone, even, odd
    // Of the current list element, written with no argument: `index()`, `first()`
    case index

    /// The transforms that may be written with no argument.
    package static let ofElement: Set<TemplateTransform> = [.first, .last, .index, .even, .odd]
}

/// A template that could not be compiled, at a line and column of its text.
package struct TemplateSyntaxError: Error, Equatable, Sendable {
    package let message: String
    package let line: Int
    package let column: Int
}

/// A `{{>partial}}` or `{{<parent}}` a template names, where it names it.
package struct TemplateReference: Equatable, Sendable {
    package let name: String
    package let line: Int
    package let column: Int
}

/// A template's nodes and the other templates it names.
package struct CompiledTemplate: Sendable {
    package let nodes: [TemplateNode]
    package let references: [TemplateReference]
}
