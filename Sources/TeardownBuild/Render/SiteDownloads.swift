import Foundation
import TeardownMedia

/// Each machine's downloads: those the plan step found, and the others found when a page
/// first asks. A machine the plan step did not plan (its bundle is as the last build found
/// it) has its downloads in the cache already; only pages that list every machine's
/// (catalog.json) ask for them.
package final class SiteDownloads: @unchecked Sendable {
    /// The downloads the plan step found, by slug.
    package let found: [String: MachineDownload]
    private let finder: @Sendable (Int) -> MachineDownload?
    private let lock = NSLock()
    private var foundLater: [String: MachineDownload?] = [:]

    package init(_ found: [String: MachineDownload], finding finder: @escaping @Sendable (Int) -> MachineDownload? = { _ in nil }) {
        self.found = found
        self.finder = finder
    }

    /// The downloads of the machine at `index`, named `slug`.
    package func download(of index: Int, slug: String) -> MachineDownload? {
        if let download = found[slug] { return download }
        if let known = lock.withLock({ foundLater[slug] }) { return known }
        let download = finder(index)
        lock.withLock { foundLater[slug] = download }
        return download
    }

    package subscript(slug: String) -> MachineDownload? { found[slug] }
}
