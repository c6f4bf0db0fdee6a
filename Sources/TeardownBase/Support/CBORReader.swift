/// Reads CBOR (RFC 8949), the encoding of Pagefind's metadata file. Hand-written because no
/// CBOR library is among the packages this project can depend on, and it reads only what that
/// file holds: definite lengths (every other item can be skipped, not decoded). A malformed or
/// truncated input reads as nil, never past its end.
package struct CBORReader {
    private let bytes: [UInt8]
    package private(set) var position: Int

    package init(_ bytes: [UInt8], from position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// An item's major type (0-7) and its argument: a value, or a length.
    private mutating func head() -> (major: UInt8, argument: UInt64)? {
        guard position < bytes.count else { return nil }
        let initial = bytes[position]
        position += 1
        let major = initial >> 5, info = initial & 31
        switch info {
        case 0..<24: return (major, UInt64(info))
        case 24...27:
            let count = 1 << Int(info - 24)
            guard position + count <= bytes.count else { return nil }
            let argument = bytes[position..<position + count].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            position += count
            return (major, argument)
        default: return nil // indefinite lengths and reserved values
        }
    }

    /// The length of an array at the reader; it then reads the array's first element.
    package mutating func arrayCount() -> Int? {
        guard let (major, argument) = head(), major == 4, argument <= UInt64(bytes.count - position) else { return nil }
        return Int(argument)
    }

    package mutating func text() -> String? {
        guard let (major, argument) = head(), major == 3, argument <= UInt64(bytes.count - position) else { return nil }
        let end = position + Int(argument)
        defer { position = end }
        return String(validating: bytes[position..<end], as: UTF8.self)
    }

    /// Passes over one item, whatever it holds; false when it is malformed.
    package mutating func skip(depth: Int = 0) -> Bool {
        guard depth < 64, let (major, argument) = head() else { return false }
        switch major {
        case 0, 1, 7: return true
        case 2, 3:
            guard argument <= UInt64(bytes.count - position) else { return false }
            position += Int(argument)
            return true
        case 4, 5:
            guard argument <= UInt64(bytes.count - position) else { return false }
            for _ in 0..<Int(argument) * (major == 5 ? 2 : 1) {
                if !skip(depth: depth + 1) { return false }
            }
            return true
        default: // 6, a tag: the item it tags follows
            return skip(depth: depth + 1)
        }
    }
}
