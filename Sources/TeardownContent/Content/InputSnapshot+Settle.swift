import Foundation
import TeardownBase

extension InputSnapshot {
    /// Those of `bundles` whose racy entries have left the racy window since, as this snapshot
    /// recorded them: the same `stat` signature and the same content. What a build loaded of
    /// such a bundle is what the walk found, and a later change gives it another signature, so
    /// it may be kept under this one (`SiteBuilder.settle`).
    package func settled(_ bundles: Set<String>) -> Set<String> {
        let before = Date().timeIntervalSince1970 - Self.racyWindow(for: roots)
        return bundles.filter { bundle in
            let pieces = storage.pieces(of: bundle)
            return !pieces.isEmpty && storage.entries(of: pieces).allSatisfy { entry in
                guard let content = entry.content else { return true }
                let path = entry.path.isEmpty ? roots[entry.root] : roots[entry.root] + "/" + entry.path
                guard let status = FileSystem.status(path), status.signature == entry.signature, status.changed < before else {
                    return false
                }
                return Self.contentDigest(roots[entry.root], entry.path, isDirectory: status.isDirectory) == content
            }
        }
    }
}
