/// Thrown when a site has errors: every problem found, not only the first.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]
    /// The step of the pipeline that failed, when a build was running.
    public private(set) var step: BuildStep?
    /// The error the diagnostics describe, when one was thrown: the build tells a damaged
    /// store, which it recovers from, from other failures.
    package private(set) var cause: (any Error)?

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sortedByLocation()
    }

    /// The same failure, marked with the step it happened in (the first step to mark it wins).
    package func `in`(_ step: BuildStep) -> BuildFailure {
        var failure = self
        if failure.step == nil { failure.step = step }
        return failure
    }

    /// The same failure, with the error it describes.
    package func caused(by error: any Error) -> BuildFailure {
        var failure = self
        failure.cause = error
        return failure
    }

    /// The build's pages were published before it failed (in its search step): the output
    /// changed, and a deploy has something to send.
    public private(set) var pagesPublished = false

    /// The same failure, after a publish of the build's pages.
    package func afterPublishing() -> BuildFailure {
        var failure = self
        failure.pagesPublished = true
        return failure
    }

    /// What the failure left of the output, for the line that ends a failed build.
    public var outputOutcome: String {
        pagesPublished ? "its pages were published, its search index was not brought up to date" : "the output was not changed"
    }

    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
