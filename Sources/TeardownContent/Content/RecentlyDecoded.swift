import TeardownBase

/// A value decoded from the content cache that can be dropped and decoded again.
package protocol Forgettable: AnyObject, Sendable {
    func forget()
}

/// The machine texts decoded last, and only they: a build that renders every page (a cold
/// build, a template edit) renders a machine's pages one after another, so it needs a few
/// machines' text at a time, not every machine's. Kept for good, the text of every machine was
/// the largest part of a cold build's peak memory (38 of 151 MB of heap at 10,000 parts).
package enum RecentlyDecoded {
    /// More than the machines whose pages all cores render at once: keeping 24 instead cost
    /// 8 MB more at the peak of a full build of 10,000 parts, and no time.
    static let limit = 8
    private static let recent = Locked<[any Forgettable]>([])

    /// Notes `value` as just decoded; the oldest beyond the limit is forgotten.
    package static func note(_ value: any Forgettable) {
        let oldest = recent.withLock { recent -> (any Forgettable)? in
            recent.removeAll { $0 === value }
            recent.append(value)
            return recent.count > limit ? recent.removeFirst() : nil
        }
        // Outside the list's lock: forgetting takes the value's own.
        oldest?.forget()
    }
}
