import TeardownBase

/// A value decoded from the content cache that can be dropped and decoded again.
package protocol Forgettable: AnyObject, Sendable {
    func forget()
}

/// The machine texts decoded last, and only they: a build that renders every page (a cold
/// build, a template edit) renders a machine's pages one after another, so it needs a few
/// machines' text at a time, not every machine's. Kept for good, the text of every machine was
/// the largest part of a cold build's peak memory (docs/ARCHITECTURE.md, "Texts are held while
/// their pages render").
package enum RecentlyDecoded {
    /// More than the machines whose pages all cores render at once; more cost memory and no time.
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
