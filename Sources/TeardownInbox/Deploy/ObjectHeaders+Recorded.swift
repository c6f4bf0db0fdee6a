import Foundation
import TeardownBase
import TeardownContent

extension ObjectHeaders {
    /// The entry the deploy manifest keeps for `file`. A compressed object's digest is the
    /// file's marked with its encoding: turning compression on or off uploads the text again,
    /// and what an earlier version stored uncompressed is replaced compressed.
    package func recorded(_ file: LocalOutputs.File) -> LocalOutputs.File {
        guard let encoding = contentEncoding(of: file.path) else { return file }
        return LocalOutputs.File(path: file.path, size: file.size, sha256: SHA256Hex.of(Data((file.sha256 + " " + encoding).utf8)))
    }
}
