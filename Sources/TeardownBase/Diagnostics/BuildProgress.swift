import Foundation

/// How far a long stage of a build has got: images made, pages rendered or search index
/// shards written, out of how many. A build tells its caller as it goes.
public struct BuildProgress: Sendable {
    public enum Stage: Sendable {
        case images, pages, search
        /// Seconds waited for another process that holds the build state, out of how many it is waited for.
        case waiting
    }

    public let stage: Stage
    public let done: Int
    public let total: Int

    public typealias Handler = @Sendable (BuildProgress) -> Void

    package init(stage: Stage, done: Int, total: Int) {
        self.stage = stage
        self.done = done
        self.total = total
    }
}

/// Counts finished work across the workers of a stage and reports each step.
package final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private let stage: BuildProgress.Stage
    private let total: Int
    private let handler: BuildProgress.Handler?

    /// Reports the stage's start (nothing done) when there is work in it.
    package init(_ stage: BuildProgress.Stage, total: Int, handler: BuildProgress.Handler?) {
        self.stage = stage
        self.total = total
        self.handler = handler
        if total > 0 { handler?(BuildProgress(stage: stage, done: 0, total: total)) }
    }

    package func step() {
        guard let handler else { return }
        lock.lock()
        done += 1
        let done = done
        lock.unlock()
        handler(BuildProgress(stage: stage, done: done, total: total))
    }
}
