import Foundation

/// Lets at most `limit` tasks run a body at once; the others wait their turn.
package actor AsyncGate {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package init(limit: Int) { self.limit = limit }

    /// Runs `body` on the blocking pool once a place is free.
    package nonisolated func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await acquire()
        let result = await BlockingPool.run(body)
        await release()
        return result
    }

    private func acquire() async {
        if running < limit {
            running += 1
        } else {
            // The place is handed over by release(), so `running` stays counted.
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    private func release() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }
}
