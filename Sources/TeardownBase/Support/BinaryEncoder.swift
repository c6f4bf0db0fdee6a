import Foundation

/// Encodes Codable values as a compact sequence of fields, for caches read back by
/// `BinaryDecoder` with the same types. Keys are not stored: a keyed container writes its
/// fields in the order they are encoded, which synthesized and hand-written `encode(to:)`
/// keep in step with `init(from:)`. Optionals carry a presence byte, arrays a count.
///
/// Hand-written because a profile showed it: a one-comment rebuild spent a large share of its
/// time in JSONDecoder reading the content cache (its cost is per value: key lookups and
/// boxing), where a positional reader needs none of that (Benchmarks/README.md).
/// Not for enums with associated values (their synthesized coding needs stored keys): give
/// such types an encoding of their own.
package struct BinaryEncoder {
    package init() {}

    package func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let sink = Sink()
        try value.encode(to: Writer(sink: sink))
        return Data(sink.bytes)
    }

    package final class Sink {
        package var bytes: [UInt8] = []

        package init() {}

        package func integer(_ value: UInt64) {
            // LEB128: most counts and lengths fit in one byte.
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        /// A length, then the bytes as they are (`BinaryBlob`).
        package func raw(_ value: [UInt8]) {
            integer(UInt64(value.count))
            bytes.append(contentsOf: value)
        }

        package func string(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                integer(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }
    }

    package struct Writer: Encoder {
        package let sink: Sink
        package var codingPath: [CodingKey] = []
        package var userInfo: [CodingUserInfoKey: Any] = [:]

        package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(sink: sink))
        }
        package func unkeyedContainer() -> UnkeyedEncodingContainer { Unkeyed(sink: sink) }
        package func singleValueContainer() -> SingleValueEncodingContainer { Single(sink: sink) }
    }

    package struct Single: SingleValueEncodingContainer {
        package let sink: Sink
        package var codingPath: [CodingKey] = []

        package mutating func encodeNil() throws { sink.bytes.append(0) }
        package mutating func encode(_ value: Bool) throws { sink.bytes.append(value ? 1 : 0) }
        package mutating func encode(_ value: String) throws { sink.string(value) }
        package mutating func encode(_ value: Double) throws { sink.integer(value.bitPattern) }
        package mutating func encode(_ value: Float) throws { sink.integer(UInt64(value.bitPattern)) }
        package mutating func encode(_ value: Int) throws { sink.integer(UInt64(bitPattern: Int64(value))) }
        package mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
        package mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
        package mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
        package mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
        package mutating func encode(_ value: UInt) throws { sink.integer(UInt64(value)) }
        package mutating func encode(_ value: UInt8) throws { sink.integer(UInt64(value)) }
        package mutating func encode(_ value: UInt16) throws { sink.integer(UInt64(value)) }
        package mutating func encode(_ value: UInt32) throws { sink.integer(UInt64(value)) }
        package mutating func encode(_ value: UInt64) throws { sink.integer(value) }
        package mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: Writer(sink: sink)) }
    }

    package struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        package let sink: Sink
        package var codingPath: [CodingKey] = []
        private var single: Single { Single(sink: sink) }

        package init(sink: Sink) { self.sink = sink }

        package mutating func encodeNil(forKey key: Key) throws { sink.bytes.append(0) }
        package mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: Bool, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: String, forKey key: Key) throws { sink.string(value) }
        package mutating func encode(_ value: Double, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: Float, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: Int, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: Int8, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: Int16, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: Int32, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: Int64, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: UInt, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: UInt8, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: UInt16, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: UInt32, forKey key: Key) throws { var single = single; try single.encode(value) }
        package mutating func encode(_ value: UInt64, forKey key: Key) throws { var single = single; try single.encode(value) }
        // Every optional carries a presence byte: the library's defaults would leave a nil out.
        private mutating func present<T: Encodable>(_ value: T?) throws {
            guard let value else { return sink.bytes.append(0) }
            sink.bytes.append(1)
            var single = single
            try single.encode(value)
        }
        package mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value) }
        package mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value) }
        package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(sink: sink))
        }
        package mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { Unkeyed(sink: sink) }
        package mutating func superEncoder() -> Encoder { Writer(sink: sink) }
        package mutating func superEncoder(forKey key: Key) -> Encoder { Writer(sink: sink) }
    }

    /// Written as a count, then the elements. The count is not known until the last element,
    /// so a fixed-width slot is kept for it and filled in as elements come.
    package struct Unkeyed: UnkeyedEncodingContainer {
        package let sink: Sink
        package var codingPath: [CodingKey] = []
        package private(set) var count = 0
        private let slot: Int

        package init(sink: Sink) {
            self.sink = sink
            slot = sink.bytes.count
            sink.bytes.append(contentsOf: [0, 0, 0, 0])
        }

        private mutating func counted() {
            count += 1
            withUnsafeBytes(of: UInt32(count).littleEndian) { sink.bytes.replaceSubrange(slot..<slot + 4, with: $0) }
        }

        package mutating func encodeNil() throws { sink.bytes.append(0); counted() }
        package mutating func encode<T: Encodable>(_ value: T) throws {
            var single = Single(sink: sink)
            try single.encode(value)
            counted()
        }
        package mutating func encode(_ value: String) throws { sink.string(value); counted() }
        package mutating func encode(_ value: Bool) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: Double) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: Float) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: Int) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: Int8) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: Int16) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: Int32) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: Int64) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: UInt) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: UInt8) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: UInt16) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: UInt32) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func encode(_ value: UInt64) throws { var single = Single(sink: sink); try single.encode(value); counted() }
        package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            counted()
            return KeyedEncodingContainer(Keyed<NestedKey>(sink: sink))
        }
        package mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { counted(); return Unkeyed(sink: sink) }
        package mutating func superEncoder() -> Encoder { counted(); return Writer(sink: sink) }
    }
}
