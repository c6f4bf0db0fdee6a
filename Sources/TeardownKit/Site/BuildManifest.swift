import Foundation

/// What one output tree holds: for each output path, the digest of the inputs it was made
/// from. It names the tree by identity (device, inode, birth time), not by path, because the
/// published and spare trees trade places on every publish.
struct BuildManifest: Sendable, Equatable {
    static let header = "teardown-manifest 1"

    let tree: FileSystem.Identity
    let outputs: [String: ContentDigest]

    /// One line per output, "<32 hex digits> <path>", sorted so equal manifests are equal files.
    func serialized() -> Data {
        var text = Self.header + "\n" + "tree \(tree)\n"
        for (path, digest) in outputs.sorted(by: { $0.key < $1.key }) {
            text += "\(digest) \(path)\n"
        }
        return Data(text.utf8)
    }

    /// Reads a manifest; nil for anything malformed, which only costs a full build.
    static func parse(_ data: Data) -> (tree: String, outputs: [String: ContentDigest])? {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.popFirst() == Substring(header), let treeLine = lines.popFirst(), treeLine.hasPrefix("tree ") else {
            return nil
        }
        var outputs: [String: ContentDigest] = [:]
        outputs.reserveCapacity(lines.count)
        for line in lines {
            guard line.utf8.count > 33, let digest = ContentDigest(hex: line.prefix(32)) else { return nil }
            outputs[String(line.dropFirst(33))] = digest
        }
        return (String(treeLine.dropFirst(5)), outputs)
    }
}
