import Dispatch
import TeardownBase

/// How long one step took.
public struct BuildTiming: Sendable, Equatable {
    public let step: BuildStep
    public let seconds: Double
}

/// Runs the steps of one build, timing each and marking any failure with the step it happened in.
package struct StepClock {
    /// Where a failure that carries no place of its own is reported: the output folder.
    package let output: String
    package private(set) var timings: [BuildTiming] = []
    /// Warnings gathered so far: a failure later in the build still reports them.
    package var warnings: [Diagnostic] = []

    package mutating func run<Value>(_ step: BuildStep, _ body: () throws -> Value) throws(BuildFailure) -> Value {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings.append(BuildTiming(step: step, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)) }
        do {
            return try body()
        } catch let failure as BuildFailure {
            throw failure.in(step)
        } catch {
            // A full device leaves the spare tree half-written beside the output: said so, since
            // it takes room (the next build reuses it).
            let hint = ErrorText.isNoSpace(error)
                ? ErrorText.noSpaceHint(also: "; the unfinished copy in \(Publisher.sparePath(of: output)) is kept for the next build and may be deleted")
                : ""
            throw BuildFailure(warnings + [.error(.outputFailed(reason: ErrorText.text(error) + hint), at: SourceLocation(output))])
                .in(step).caused(by: error)
        }
    }
}
