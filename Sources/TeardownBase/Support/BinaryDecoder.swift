import Foundation

/// Reads what `BinaryEncoder` wrote, into the same types. Any mismatch (a cut or foreign file,
/// another layout) throws rather than reading past the end: callers treat it as a cache miss.
package struct BinaryDecoder {
    package init() {}

    package func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        let source = Source(bytes: [UInt8](data))
        let value = try Value(from: Reader(source: source))
        guard source.position == source.bytes.count else { throw Source.corrupt }
        return value
    }

    package final class Source {
        package let bytes: [UInt8]
        package var position = 0

        package init(bytes: [UInt8]) { self.bytes = bytes }

        package static let corrupt = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a whole cache entry"))

        package func byte() throws -> UInt8 {
            guard position < bytes.count else { throw Self.corrupt }
            defer { position += 1 }
            return bytes[position]
        }

        package func integer() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 64 else { throw Self.corrupt }
                value |= UInt64(next & 0x7F) << shift
                if next & 0x80 == 0 { return value }
                shift += 7
            }
        }

        package func string() throws -> String {
            // A length past Int.max (a damaged entry) is no length at all, not a trap.
            guard let count = Int(exactly: try integer()), count <= bytes.count - position else { throw Self.corrupt }
            defer { position += count }
            return bytes.withUnsafeBufferPointer { String(decoding: $0[position..<position + count], as: UTF8.self) }
        }

        /// A length, then that many bytes as they are (`BinaryBlob`).
        package func raw() throws -> [UInt8] {
            // A length past Int.max (a damaged entry) is no length at all, not a trap.
            guard let count = Int(exactly: try integer()), count <= bytes.count - position else { throw Self.corrupt }
            defer { position += count }
            return Array(bytes[position..<position + count])
        }

        /// An array's four-byte count. Every element takes at least a byte: a larger count is
        /// damage, and must not make an array reserve room for billions of elements before a read fails.
        package func count() throws -> Int {
            guard bytes.count - position >= 4 else { throw Self.corrupt }
            var value = 0
            for offset in 0..<4 { value |= Int(bytes[position + offset]) << (8 * offset) }
            position += 4
            guard value <= bytes.count - position else { throw Self.corrupt }
            return value
        }

        package func flag() throws -> Bool {
            switch try byte() {
            case 0: false
            case 1: true
            default: throw Self.corrupt
            }
        }

        package func signed() throws -> Int { Int(Int64(bitPattern: try integer())) }

        package func unsigned<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            guard let value = T(exactly: try integer()) else { throw Self.corrupt }
            return value
        }
    }

    package struct Reader: Decoder {
        package let source: Source
        package var codingPath: [CodingKey] = []
        package var userInfo: [CodingUserInfoKey: Any] = [:]

        package init(source: Source, codingPath: [CodingKey] = [], userInfo: [CodingUserInfoKey: Any] = [:]) {
            self.source = source
            self.codingPath = codingPath
            self.userInfo = userInfo
        }

        package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(source: source))
        }
        package func unkeyedContainer() throws -> UnkeyedDecodingContainer { try Unkeyed(source: source) }
        package func singleValueContainer() throws -> SingleValueDecodingContainer { Single(source: source) }
    }

    package struct Single: SingleValueDecodingContainer {
        package let source: Source
        package var codingPath: [CodingKey] = []

        package func decodeNil() -> Bool { false }
        package func decode(_ type: Bool.Type) throws -> Bool { try source.flag() }
        package func decode(_ type: String.Type) throws -> String { try source.string() }
        package func decode(_ type: Double.Type) throws -> Double { Double(bitPattern: try source.integer()) }
        package func decode(_ type: Float.Type) throws -> Float { Float(bitPattern: try source.unsigned(UInt32.self)) }
        package func decode(_ type: Int.Type) throws -> Int { try source.signed() }
        package func decode(_ type: Int8.Type) throws -> Int8 { try narrow(source.signed()) }
        package func decode(_ type: Int16.Type) throws -> Int16 { try narrow(source.signed()) }
        package func decode(_ type: Int32.Type) throws -> Int32 { try narrow(source.signed()) }
        package func decode(_ type: Int64.Type) throws -> Int64 { Int64(try source.signed()) }
        package func decode(_ type: UInt.Type) throws -> UInt { try source.unsigned(UInt.self) }
        package func decode(_ type: UInt8.Type) throws -> UInt8 { try source.unsigned(UInt8.self) }
        package func decode(_ type: UInt16.Type) throws -> UInt16 { try source.unsigned(UInt16.self) }
        package func decode(_ type: UInt32.Type) throws -> UInt32 { try source.unsigned(UInt32.self) }
        package func decode(_ type: UInt64.Type) throws -> UInt64 { try source.integer() }
        package func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: Reader(source: source)) }

        private func narrow<T: FixedWidthInteger>(_ value: Int) throws -> T {
            guard let narrowed = T(exactly: value) else { throw Source.corrupt }
            return narrowed
        }
    }

    package struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        package let source: Source
        package var codingPath: [CodingKey] = []
        // Keys are not stored; every key a type asks for is taken to be there, in order.
        package var allKeys: [Key] { [] }
        private var single: Single { Single(source: source) }

        package init(source: Source) { self.source = source }

        package func contains(_ key: Key) -> Bool { true }
        package func decodeNil(forKey key: Key) throws -> Bool { try !source.flag() }
        package func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try single.decode(type) }
        package func decode(_ type: String.Type, forKey key: Key) throws -> String { try single.decode(type) }
        package func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try single.decode(type) }
        package func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try single.decode(type) }
        package func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try single.decode(type) }
        package func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try single.decode(type) }
        package func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try single.decode(type) }
        package func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try single.decode(type) }
        package func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try single.decode(type) }
        package func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try single.decode(type) }
        package func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try single.decode(type) }
        package func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try single.decode(type) }
        package func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try single.decode(type) }
        package func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try single.decode(type) }
        package func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try single.decode(type) }
        package func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try source.flag() ? try single.decode(type) : nil }
        package func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try source.flag() ? try single.decode(type) : nil }
        package func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                                   forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(Keyed<NestedKey>(source: source))
        }
        package func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try Unkeyed(source: source) }
        package func superDecoder() throws -> Decoder { Reader(source: source) }
        package func superDecoder(forKey key: Key) throws -> Decoder { Reader(source: source) }
    }

    package struct Unkeyed: UnkeyedDecodingContainer {
        package let source: Source
        package var codingPath: [CodingKey] = []
        package let count: Int?
        package private(set) var currentIndex = 0
        package var isAtEnd: Bool { currentIndex >= count ?? 0 }

        package init(source: Source) throws {
            self.source = source
            count = try source.count()
        }

        private mutating func next() throws {
            guard !isAtEnd else { throw Source.corrupt }
            currentIndex += 1
        }

        package mutating func decodeNil() throws -> Bool {
            try next()
            guard try source.byte() == 0 else { throw Source.corrupt }
            return true
        }
        package mutating func decode(_ type: String.Type) throws -> String { try next(); return try source.string() }
        package mutating func decode(_ type: Bool.Type) throws -> Bool { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: Double.Type) throws -> Double { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: Float.Type) throws -> Float { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: Int.Type) throws -> Int { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: UInt.Type) throws -> UInt { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(); return try Single(source: source).decode(type) }
        package mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(); return try Single(source: source).decode(type) }
        package mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next()
            return try Single(source: source).decode(type)
        }
        package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next()
            return KeyedDecodingContainer(Keyed<NestedKey>(source: source))
        }
        package mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next(); return try Unkeyed(source: source) }
        package mutating func superDecoder() throws -> Decoder { try next(); return Reader(source: source) }
    }
}
