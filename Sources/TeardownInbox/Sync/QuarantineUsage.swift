import Foundation
import TeardownBase

/// The bytes each quarantined submission's files take, measured once a sync and kept up to
/// date as rejections are filed: walking the whole quarantine for each rejection made a sync's
/// time grow with the square of its rejections.
package final class QuarantineUsage {
    private let folder: String
    private var sizes: [String: Int]?
    private var total = 0
    /// Where measurements are counted: once a sync, however many rejections.
    private let counters: BuildCounters

    package init(folder: String, counters: BuildCounters = .none) {
        self.folder = folder
        self.counters = counters
    }

    /// The bytes of every kept submission but `key`'s.
    package func others(than key: String) -> Int {
        measure()
        return total - (sizes?[key] ?? 0)
    }

    package func set(_ key: String, bytes: Int) {
        remove(key)
        sizes?[key] = bytes
        total += bytes
    }

    package func remove(_ key: String) {
        measure()
        total -= sizes?.removeValue(forKey: key) ?? 0
    }

    private func measure() {
        guard sizes == nil else { return }
        counters.count(.quarantineMeasured)
        var found: [String: Int] = [:]
        for name in FileSystem.names(in: folder) where FileSystem.isDirectory(folder + "/" + name) {
            found[name] = Syncer.size(of: folder + "/" + name)
        }
        sizes = found
        total = found.values.reduce(0, +)
    }
}
