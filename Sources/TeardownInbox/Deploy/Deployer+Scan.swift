import Foundation
import TeardownBase
import TeardownContent

extension Deployer {
    /// The output as the last deploy's record has it (`LocalShards`), with the files builds
    /// changed since read again; or a new scan of every file. `touched` is the shards that
    /// differ from the record (nil: every shard).
    func scan() throws(StoreFailure) -> (ScannedOutput, touched: Set<Int>?) {
        if !options.verify, case (var scanned, let changed)? = LocalShards(state).load(headers: options.headers),
           let touched = scanned.replace(readAgain(changed)) {
            return (scanned, touched)
        }
        return (try scanLocal(), nil)
    }

    /// The files at `changed` paths as they are now; nil for one that is gone.
    private func readAgain(_ changed: Set<String>) -> [(path: String, file: LocalOutputs.File?)] {
        let headers = options.headers, output = output
        // Hidden files are never deployed (the scan skips them too).
        let paths = changed.filter { !$0.hasPrefix(".") && !$0.contains("/.") }.sorted()
        let files = ParallelMap.map(paths) { path -> LocalOutputs.File? in
            // A file that cannot be read is gone from the output: deleted from the bucket.
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: output + "/" + path), options: .alwaysMapped) else { return nil }
            return headers.recorded(LocalOutputs.File(path: path, size: data.count, sha256: SHA256Hex.of(data)))
        }
        return Array(zip(paths, files))
    }

    func scanLocal() throws(StoreFailure) -> ScannedOutput {
        do {
            try FileManager.default.createDirectory(atPath: (cache as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw StoreFailure("\((cache as NSString).deletingLastPathComponent) cannot be created: \(error.localizedDescription)")
        }
        let headers = options.headers
        return ScannedOutput(scanned: try LocalOutputs.scan(output, cache: cache).map { headers.recorded($0) })
    }

    /// After a deploy that wrote its manifest: the record learns its scan.
    func remember(_ scanned: ScannedOutput, touched: Set<Int>?) {
        LocalShards(state).save(scanned, changed: touched, headers: options.headers)
    }
}
