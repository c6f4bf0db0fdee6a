import MetricsTestKit
@testable import TeardownBase

/// The counts of the builds and syncs a test passes `counters` to, and of no other: every
/// test that counts has its own.
final class Counts: Sendable {
    private let metrics = TestMetrics()

    /// To pass to a `SiteBuilder` or a `Syncer`.
    var counters: BuildCounters { BuildCounters(factory: metrics) }

    /// How many times `event` happened so far.
    subscript(_ event: BuildCounters.Event) -> Int {
        Int((try? metrics.expectCounter(event.rawValue))?.totalValue ?? 0)
    }
}
