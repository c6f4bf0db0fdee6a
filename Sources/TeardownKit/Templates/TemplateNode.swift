/// One piece of a compiled template.
indirect enum TemplateNode: Sendable {
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
struct TemplateName: Sendable, Equatable {
    /// The dotted path; empty for `.`.
    let path: [String]
    let transform: TemplateTransform?
    /// A transform written with no argument, such as `index()`: it asks about the list
    /// element being rendered.
    let ofElement: Bool
    /// The name as written, for matching a section's closing tag.
    let written: String
}

/// The functions a tag may apply to a value: swift-mustache's, which themes written for
/// earlier versions of Teardown used, so that they keep working.
enum TemplateTransform: String, Sendable {
    // Of a value
    case empty, count, first, last, reversed
    case uppercased, lowercased, capitalized
    case equalzero, plusone, minusone, even, odd
    // Of the current list element, written with no argument: `index()`, `first()`
    case index

    /// The transforms that may be written with no argument.
    static let ofElement: Set<TemplateTransform> = [.first, .last, .index, .even, .odd]
}

/// A template that could not be compiled, at a line and column of its text.
struct TemplateSyntaxError: Error, Equatable, Sendable {
    let message: String
    let line: Int
    let column: Int
}

/// A `{{>partial}}` or `{{<parent}}` a template names, where it names it.
struct TemplateReference: Equatable, Sendable {
    let name: String
    let line: Int
    let column: Int
}

/// A template's nodes and the other templates it names.
struct CompiledTemplate: Sendable {
    let nodes: [TemplateNode]
    let references: [TemplateReference]
}
