import Foundation
import TeardownBase

/// The files of the output folder with their SHA-256, read again only when a file's size,
/// modification time or inode changed since the last deploy (a cache in the site's
/// `.teardown/` folder): after a one-comment sync, a deploy hashes a handful of files, not the site.
package struct LocalOutputs {
    package struct File: Sendable {
        package let path: String
        package let size: Int
        package let sha256: String
    }

    package static let cacheHeader = "teardown-deploy-digests 1"

    /// Every visible file below `root`; the cache file is read and rewritten.
    package static func scan(_ root: String, cache: String) throws(StoreFailure) -> [File] {
        // The top two levels are walked here, the folders below them (a machine's, a tag's) on
        // all cores, not one walk after another.
        var stamps: [(path: String, status: FileSystem.Status)] = [], folders: [String] = []
        var complete = FileSystem.walk(root, descend: { !$0.contains("/") }) { path, status in
            if !status.isDirectory {
                stamps.append((path, status))
            } else if path.contains("/") {
                folders.append(path)
            }
        }
        let below = ParallelMap.map(folders) { folder -> [(path: String, status: FileSystem.Status)]? in
            var found: [(path: String, status: FileSystem.Status)] = []
            let whole = FileSystem.walk(root + "/" + folder) { path, status in
                if !status.isDirectory { found.append((folder + "/" + path, status)) }
            }
            return whole ? found : nil
        }
        for files in below {
            guard let files else {
                complete = false
                break
            }
            stamps += files
        }
        guard complete else { throw StoreFailure("\(root) cannot be read whole (an unreadable entry, or a link to a folder)") }
        let known = readCache(cache)
        let files = ParallelMap.map(stamps) { entry -> File? in
            if let cached = known[entry.path], cached.signature == entry.status.contentSignature {
                return File(path: entry.path, size: entry.status.size, sha256: cached.sha256)
            }
            // A file gone since the listing is reported below by name.
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: root + "/" + entry.path), options: .alwaysMapped) else {
                return nil
            }
            return File(path: entry.path, size: data.count, sha256: SHA256Hex.of(data))
        }
        guard files.allSatisfy({ $0 != nil }) else { throw StoreFailure("\(root) changed while it was read; run the deploy again") }
        // Rewritten only when it no longer matches the folder: at 30,000 files it is megabytes,
        // and a deploy with nothing new would otherwise write it all again.
        let current = stamps.count == known.count
            && stamps.allSatisfy { known[$0.path]?.signature == $0.status.contentSignature }
        guard !current else { return files.compactMap { $0 } }
        var text = cacheHeader + "\n"
        for (entry, file) in zip(stamps, files) {
            text += "\(entry.status.contentSignature) \(file!.sha256) \(entry.path)\n"
        }
        FileSystem.replaceFile(Data(text.utf8), at: cache)
        return files.compactMap { $0 }
    }

    /// Lines are cut from the bytes (`ByteSearch.lines`), not split into Strings: the file has a
    /// line for every published file.
    private static func readCache(_ path: String) -> [String: (signature: UInt64, sha256: String)] {
        guard let data = FileManager.default.contents(atPath: path),
              let lines = ByteSearch.lines(after: cacheHeader, in: [UInt8](data)) else { return [:] }
        let space = UInt8(ascii: " ")
        var known: [String: (signature: UInt64, sha256: String)] = [:]
        for line in lines {
            guard let signatureEnd = line.firstIndex(of: space), let digestEnd = line[(signatureEnd + 1)...].firstIndex(of: space),
                  // Up to 20 digits: more than `SnapshotLine.number` reads.
                  let signature = UInt64(String(decoding: line[line.startIndex..<signatureEnd], as: UTF8.self))
            else { continue }
            known[String(decoding: line[(digestEnd + 1)...], as: UTF8.self)] =
                (signature, String(decoding: line[(signatureEnd + 1)..<digestEnd], as: UTF8.self))
        }
        return known
    }
}
