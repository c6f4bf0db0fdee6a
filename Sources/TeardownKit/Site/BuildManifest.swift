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
        // Lines are cut from the bytes: splitting a String by Character showed in profiles of a
        // one-comment rebuild, for a file of a line per output.
        let bytes = [UInt8](data)
        var lines: [ArraySlice<UInt8>] = []
        lines.reserveCapacity(bytes.count / 64)
        var start = 0
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if offset > start { lines.append(bytes[start..<offset]) }
            start = offset + 1
        }
        if start < bytes.count { lines.append(bytes[start...]) }
        func text(_ slice: ArraySlice<UInt8>) -> String? { String(validating: slice, as: UTF8.self) }
        guard lines.count >= 2, text(lines[0]) == header, let treeLine = text(lines[1]), treeLine.hasPrefix("tree ") else {
            return nil
        }
        var outputs: [String: ContentDigest] = [:]
        outputs.reserveCapacity(lines.count)
        for line in lines.dropFirst(2) {
            guard line.count > 33, line[line.startIndex + 32] == UInt8(ascii: " "),
                  let hex = text(line.prefix(32)), let digest = ContentDigest(hex: Substring(hex)),
                  let path = text(line.dropFirst(33)) else { return nil }
            outputs[path] = digest
        }
        return (String(treeLine.dropFirst(5)), outputs)
    }
}
