import CoreMetrics

/// Sums what a run counts (`BuildCounters`) in memory, for a command that is asked to write its
/// counts out (`TEARDOWN_COUNTS`): the scaling tests run the command in a process of its own,
/// as a user does, and compare what it touched at two catalog sizes.
public final class CountTally: MetricsFactory, @unchecked Sendable {
    private let totals = Locked<[String: Int64]>([:])

    public init() {}

    /// The counters to pass to a build or a sync.
    public var counters: BuildCounters { BuildCounters(factory: self) }

    /// Every event's count so far, by label; an event that never happened counts 0.
    public var counts: [String: Int64] {
        let totals = totals.withLock { $0 }
        return Dictionary(uniqueKeysWithValues: BuildCounters.Event.allCases.map { ($0.rawValue, totals[$0.rawValue] ?? 0) })
    }

    private final class Counter: CounterHandler, @unchecked Sendable {
        let label: String
        let totals: Locked<[String: Int64]>
        init(label: String, totals: Locked<[String: Int64]>) {
            self.label = label
            self.totals = totals
        }
        func increment(by amount: Int64) { totals.withLock { $0[label, default: 0] += amount } }
        func reset() { totals.withLock { $0[label] = 0 } }
    }

    /// Builds count events only; the other kinds of metric are taken and dropped.
    private final class Dropped: RecorderHandler, TimerHandler, @unchecked Sendable {
        func record(_ value: Int64) {}
        func record(_ value: Double) {}
        func recordNanoseconds(_ duration: Int64) {}
    }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        Counter(label: label, totals: totals)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler { Dropped() }
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { Dropped() }
    public func destroyCounter(_ handler: any CounterHandler) {}
    public func destroyRecorder(_ handler: any RecorderHandler) {}
    public func destroyTimer(_ handler: any TimerHandler) {}
}
