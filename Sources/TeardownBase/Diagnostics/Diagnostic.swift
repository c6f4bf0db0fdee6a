/// One problem found in a site, with where it is and how bad it is.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Errors stop the build; warnings are reported and the build goes on.
    public enum Severity: String, Sendable, Codable {
        case error
        case warning
    }

    public let severity: Severity
    public let location: SourceLocation
    public let problem: Problem

    public init(_ severity: Severity, _ problem: Problem, at location: SourceLocation) {
        self.severity = severity
        self.problem = problem
        self.location = location
    }

    public static func error(_ problem: Problem, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, problem, at: location)
    }

    public static func warning(_ problem: Problem, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, problem, at: location)
    }

    /// The same problem as an error, for `teardown check --strict`.
    public var asError: Diagnostic { Diagnostic(.error, problem, at: location) }

    /// `path:line:col: error: message`
    public var description: String {
        "\(location): \(severity.rawValue): \(problem.message)"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any of these diagnostics stops a build.
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by file, then position, so output is stable across parallel runs.
    public func sortedByLocation() -> [Diagnostic] {
        sorted {
            ($0.location.path, $0.location.line, $0.location.column)
                < ($1.location.path, $1.location.line, $1.location.column)
        }
    }
}
