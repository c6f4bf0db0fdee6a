/// Bytes kept as they are inside a positional encoding: a value decoded only when first read
/// sits in its parent's entry as a length and its bytes, which decoding the parent copies in
/// one step instead of walking every field.
package struct BinaryBlob: Codable, Sendable, Hashable {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) { self.bytes = bytes }

    package init(from decoder: Decoder) throws {
        if let reader = decoder as? BinaryDecoder.Reader {
            bytes = try reader.source.raw()
        } else {
            bytes = try decoder.singleValueContainer().decode([UInt8].self)
        }
    }

    package func encode(to encoder: Encoder) throws {
        if let writer = encoder as? BinaryEncoder.Writer {
            writer.sink.raw(bytes)
        } else {
            var container = encoder.singleValueContainer()
            try container.encode(bytes)
        }
    }
}
