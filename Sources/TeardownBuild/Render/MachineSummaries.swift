import TeardownBase
import TeardownContent
import TeardownMedia

/// Each machine's summary (`MachineSummary`), by number, made or read when first asked for:
/// read back from the build store for a machine it vouches for, made from the head and the
/// image outcomes for the others. A summary the store cannot give back (a row gone or damaged)
/// is made instead: the same value, at the cost of the head.
package final class MachineSummaries: Sendable {
    private let content: SiteContent
    private let images: ProcessedImages
    /// The machines whose stored summary is theirs now.
    private let vouched: Set<Int>
    private let stored: @Sendable (String) -> [UInt8]?
    private let counters: BuildCounters
    private let known = Locked([Int: MachineSummary]())

    package init(content: SiteContent, images: ProcessedImages, vouched: Set<Int>, counters: BuildCounters,
                 stored: @escaping @Sendable (String) -> [UInt8]?) {
        self.content = content
        self.images = images
        self.vouched = vouched
        self.stored = stored
        self.counters = counters
    }

    package subscript(machine: Int) -> MachineSummary {
        if let summary = known.withLock({ $0[machine] }) { return summary }
        // Made outside the lock: pages on the other core wait for no one; two that race make it alike.
        let slug = content.machines[machine].slug
        let summary: MachineSummary
        if vouched.contains(machine), let bytes = stored(slug), let read = MachineSummary(encoded: bytes), read.slug == slug {
            counters.count(.summariesRead)
            summary = read
        } else {
            counters.count(.summariesMade)
            summary = MachineSummary(ContentView(content, reads: ReadSet()).machines[machine], images: images)
        }
        known.withLock { $0[machine] = summary }
        return summary
    }
}
