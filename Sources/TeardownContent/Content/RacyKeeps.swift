import Foundation
import TeardownBase

/// Bundles a build loaded while racy (a comment filed a moment before), held until the build
/// knows whether they have settled. Kept under their signature at once, such a bundle would be
/// taken as it is by a build that cannot tell a change made within the same clock tick; never
/// kept, it was read again from its files by the next sync's review and build, and digested
/// and planned again, every sync (Benchmarks/README.md). So the build keeps it once its racy
/// entries are past the window and as the walk found them (`SiteBuilder.settle`).
package final class RacyKeeps: Sendable {
    private struct Held {
        let cache: ContentCache
        let signature: ContentDigest
        let parts: [String: ContentDigest]
        let machine: Machine
        let diagnostics: [Diagnostic]
        let reload: @Sendable () -> Machine?
    }

    private let held = Locked([String: Held]())

    package init() {}

    /// Holds bundle `name` as loaded, to be kept under `signature` if it settles.
    package func hold(_ name: String, cache: ContentCache, signature: ContentDigest, parts: [String: ContentDigest], machine: Machine,
                      diagnostics: [Diagnostic], reload: @escaping @Sendable () -> Machine?) {
        held.withLock {
            $0[name] = Held(cache: cache, signature: signature, parts: parts, machine: machine, diagnostics: diagnostics, reload: reload)
        }
    }

    /// The bundles held.
    package var names: Set<String> { held.withLock { Set($0.keys) } }

    /// Keeps the bundles `settled` in the content cache, as a bundle loaded settled is kept.
    package func keep(_ settled: Set<String>) {
        for (name, bundle) in held.withLock({ $0 }) where settled.contains(name) {
            _ = bundle.cache.store(name, signature: bundle.signature, parts: bundle.parts, machine: bundle.machine,
                                   diagnostics: bundle.diagnostics, reload: bundle.reload)
        }
    }
}
