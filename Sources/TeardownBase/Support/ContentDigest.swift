import Foundation

/// The first 128 bits of a SHA-256: names a build input or output in the build manifest.
public struct ContentDigest: Hashable, Sendable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The digest of bytes as they are (a cache entry's, a stored file's).
    package init(bytes data: Data) { self.init(SHA256.hash(data: data)) }

    public init(of text: String) {
        var fingerprint = Fingerprint()
        fingerprint.add(text)
        self = fingerprint.digest
    }

    package init(_ hash: [UInt8]) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(hash[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(hash[index]) }
        self.init(high: high, low: low)
    }

    /// 32 lowercase hex digits.
    public var description: String { Self.hex(high) + Self.hex(low) }

    /// Parses the 32 hex digits written by `description`.
    public init?(hex: Substring) {
        guard hex.utf8.count == 32, let high = UInt64(hex.prefix(16), radix: 16), let low = UInt64(hex.suffix(16), radix: 16)
        else { return nil }
        self.init(high: high, low: low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Accumulates the inputs of one output into a digest. Each value is written with its kind
/// and length, so ("ab", "c") and ("a", "bc") never give the same digest.
public struct Fingerprint {
    private var hasher = SHA256()
    /// Small values gathered before they are hashed: a call into SHA-256 per path and
    /// signature costs more than the hashing of so few bytes.
    /// (The digest is the same however the bytes are split.)
    private var pending: [UInt8] = []
    private static let flushAt = 16 * 1024

    public init() {}

    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            add(tag: 1, count: bytes.count)
            if bytes.count >= Self.flushAt {
                flush()
                hasher.update(bufferPointer: UnsafeRawBufferPointer(bytes))
            } else {
                pending.append(contentsOf: bytes)
                if pending.count >= Self.flushAt { flush() }
            }
        }
    }

    public mutating func add(_ value: String?) {
        if let value { add(value) } else { add(tag: 0, count: 0) }
    }

    public mutating func add(_ value: Int) { add(tag: 2, count: value) }

    /// Bytes as they are, after their length.
    package mutating func add(_ data: Data) {
        add(tag: 6, count: data.count)
        flush()
        hasher.update(data: data)
    }

    public mutating func add(_ value: Bool) { add(tag: 3, count: value ? 1 : 0) }

    public mutating func add(_ digest: ContentDigest) {
        add(tag: 4, count: Int(bitPattern: UInt(digest.high)))
        add(tag: 5, count: Int(bitPattern: UInt(digest.low)))
    }

    private mutating func add(tag: UInt8, count: Int) {
        // Byte by byte, little-endian: the same bytes on every machine.
        if pending.capacity == 0 { pending.reserveCapacity(1024) }
        let value = UInt64(bitPattern: Int64(count))
        pending.append(tag)
        for shift in stride(from: 0, to: 64, by: 8) { pending.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        pending.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        pending.removeAll(keepingCapacity: true)
    }

    public var digest: ContentDigest {
        var hasher = self.hasher
        pending.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return ContentDigest(hasher.finalize())
    }
}

/// Full SHA-256 of bytes, as 64 hex digits: the form inbox manifests use.
public enum SHA256Hex {
    public static func of(_ data: Data) -> String { hex(SHA256.hash(data: data)) }

    /// The digest of a file, read a megabyte at a time, so a large file is never whole in memory.
    public static func of(file path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
// Closing a file opened for reading loses nothing.
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            // Foundation answers nil or empty data at the end, depending on the platform.
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
            }
        } catch {
            return nil
        }
        return hex(hasher.finalize())
    }

    private static func hex(_ digest: [UInt8]) -> String {
        digest.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
