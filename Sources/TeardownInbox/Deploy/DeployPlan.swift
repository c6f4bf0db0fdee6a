import Foundation
import TeardownBase
import TeardownContent

/// What a deploy will do: each upload, replacement and deletion with its size and reason,
/// uploads in the order they go (`rank`: assets, then the pages that point at them; the search
/// index after the pages).
public struct DeployPlan: Sendable {
    public enum Action: String, Sendable {
        case upload, replace, delete
    }

    public struct Step: Sendable {
        public let action: Action
        public let path: String
        public let size: Int
        public let reason: String
    }

    public let uploads: [Step]
    public let deletions: [Step]
    public let unchanged: Int
    /// True when the bucket had no deploy manifest and was listed instead.
    public let listed: Bool

    public var uploadBytes: Int { uploads.reduce(0) { $0 + $1.size } }
    public var deletionBytes: Int { deletions.reduce(0) { $0 + $1.size } }

    /// Compares the output folder with what the bucket holds: by the deploy manifest's
    /// digests, or, without one, by a listing's sizes and ETags (MD5 for objects sent whole).
    /// `local` may be the files of some shards of the manifest only (`DeployShards`): `manifest`
    /// then holds those shards' entries, and `unchangedElsewhere` counts the files of the others.
    /// `stored` gives a file's bytes as they would be uploaded (compressed or not), for the ETag.
    package static func make(local: [LocalOutputs.File], manifest: DeployManifest?, listing: [String: S3Store.Listed],
                     stored: (String) -> Data?, unchangedElsewhere: Int = 0) -> DeployPlan {
        var uploads: [Step] = []
        var unchanged = unchangedElsewhere
        for file in local {
            if let manifest {
                switch manifest.entries[file.path] {
                case .some(let entry) where entry.sha256 == file.sha256 && entry.size == file.size: unchanged += 1
                case .some: uploads.append(Step(action: .replace, path: file.path, size: file.size, reason: "changed"))
                case .none: uploads.append(Step(action: .upload, path: file.path, size: file.size, reason: "new"))
                }
            } else if let object = listing[file.path] {
                let body = stored(file.path)
                if let body, object.size == body.count, object.etag == md5(body) {
                    unchanged += 1
                } else {
                    uploads.append(Step(action: .replace, path: file.path, size: file.size,
                                        reason: object.size == body?.count ? "ETag differs" : "size differs"))
                }
            } else {
                uploads.append(Step(action: .upload, path: file.path, size: file.size, reason: "new"))
            }
        }
        let present = Set(local.map(\.path))
        let remote: [(String, Int)] = manifest.map { $0.entries.map { ($0.key, $0.value.size) } }
            ?? listing.map { ($0.key, $0.value.size) }
        let deletions = remote.filter { !present.contains($0.0) }.sorted { $0.0 < $1.0 }
            .map { Step(action: .delete, path: $0.0, size: $0.1, reason: "no longer in the site") }
        let ordered = uploads.sorted {
            let (first, second) = (rank($0.path), rank($1.path))
            return first != second ? first < second : $0.path < $1.path
        }
        return DeployPlan(uploads: ordered, deletions: deletions, unchanged: unchanged, listed: manifest == nil)
    }

    /// Where a file goes in the order of uploads: the site's assets, then the pages, feeds and
    /// JSON that point at them, then the search index's files, then the index's entries and the
    /// search page that names them. A changed page goes live before the index is uploaded, as a
    /// build publishes it (the page first, the index after), and no upload names a file not there yet.
    static func rank(_ path: String) -> Int {
        let search = path.hasPrefix(Routes.searchIndexFolder + "/") || path == Routes.search.outputPath
        return (search ? 2 : 0) + (ObjectHeaders.isPage(path) ? 1 : 0)
    }

    private static func md5(_ data: Data) -> String {
        MD5.hash(data).map { String(format: "%02x", $0) }.joined()
    }
}
