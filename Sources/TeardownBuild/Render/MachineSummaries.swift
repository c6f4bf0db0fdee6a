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
    /// Every stored summary by slug, in one query: for the site index, which files every part.
    private let storedAll: @Sendable () -> [String: [UInt8]]
    private let counters: BuildCounters
    private let known = Locked([Int: MachineSummary]())

    package init(content: SiteContent, images: ProcessedImages, vouched: Set<Int>, counters: BuildCounters,
                 stored: @escaping @Sendable (String) -> [UInt8]?,
                 storedAll: @escaping @Sendable () -> [String: [UInt8]] = { [:] }) {
        self.content = content
        self.images = images
        self.vouched = vouched
        self.stored = stored
        self.storedAll = storedAll
        self.counters = counters
    }

    package subscript(machine: Int) -> MachineSummary {
        if let summary = known.withLock({ $0[machine] }) { return summary }
        // Made outside the lock: pages on the other core wait for no one; two that race make it alike.
        let summary = summary(machine, stored: vouched.contains(machine) ? stored(content.machines[machine].slug) : nil)
        known.withLock { $0[machine] = summary }
        return summary
    }

    /// Every machine's summary, in order: the stored ones read in one query, not one each.
    package var all: [MachineSummary] {
        let known = known.withLock { $0 }
        let missing = content.machines.indices.filter { known[$0] == nil && vouched.contains($0) }
        let rows = missing.isEmpty ? [:] : storedAll()
        let summaries = content.machines.indices.map { m in
            known[m] ?? summary(m, stored: vouched.contains(m) ? rows[content.machines[m].slug] : nil)
        }
        self.known.withLock { known in
            for (m, summary) in summaries.enumerated() { known[m] = summary }
        }
        return summaries
    }

    /// The stored summary of machine `machine` when its bytes are one of its, else one made from its head.
    private func summary(_ machine: Int, stored bytes: [UInt8]?) -> MachineSummary {
        let slug = content.machines[machine].slug
        if let bytes, let read = MachineSummary(encoded: bytes), read.slug == slug {
            counters.count(.summariesRead)
            return read
        }
        counters.count(.summariesMade)
        return MachineSummary(ContentView(content, reads: ReadSet()).machines[machine], images: images)
    }
}
