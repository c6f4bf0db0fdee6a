/// Thrown when a site has errors: every problem found, not only the first.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sortedByLocation()
    }

    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
