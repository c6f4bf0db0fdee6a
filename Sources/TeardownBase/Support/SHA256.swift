import CTeardownDigest
import Foundation

/// SHA-256 over the system's libcrypto, through the CTeardownDigest shim: the only file that
/// calls it. (swift-crypto compiles a second, vendored copy of the same code into every fresh
/// clone's first build, for these three functions.)
public struct SHA256: Sendable {
    private var state = td_sha256_state()

    public init() { td_sha256_start(&state) }

    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        td_sha256_add(&state, bytes.baseAddress, bytes.count)
    }

    public mutating func update(data: Data) {
        data.withUnsafeBytes { update(bufferPointer: $0) }
    }

    /// The 32 bytes of the digest of everything added; the hasher can go on taking bytes.
    public func finalize() -> [UInt8] {
        var state = self.state
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { td_sha256_finish(&state, $0.baseAddress) }
        return digest
    }

    public static func hash(data: Data) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// Whether two digests are the same, compared in a time that does not say where they differ.
    public static func same(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        first.count == second.count && first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in td_equal_in_constant_time(a.baseAddress, b.baseAddress, a.count) != 0 }
        }
    }
}

/// MD5, which S3 gives as the ETag of an object uploaded whole: only to compare with one.
package enum MD5 {
    package static func hash(_ data: Data) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 16)
        data.withUnsafeBytes { bytes in
            digest.withUnsafeMutableBufferPointer { td_md5(bytes.baseAddress, bytes.count, $0.baseAddress) }
        }
        return digest
    }
}
