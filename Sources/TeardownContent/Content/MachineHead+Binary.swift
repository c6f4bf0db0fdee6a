import Foundation
import TeardownBase

// Hand-written readers of a content cache entry's head, in the very layout `BinaryEncoder`
// writes for the synthesized `Codable` conformances (fields in declaration order, optionals
// behind a flag, arrays behind a four-byte count). Kept by a profile: every build and every
// sync's review decode every machine's head, and through `Decodable` most of that time went
// to the generic containers' witness and metadata lookups, not to the bytes. Types that are
// rare or small in a head (the machine's manual, the diagnostics) still go through `Decodable`. A test decodes real heads
// both ways and compares them; `make fuzz` feeds this reader damaged entries.

/// A value read straight from the binary coder's bytes.
package protocol BinaryReadable {
    init(reading source: BinaryDecoder.Source) throws
}

extension BinaryDecoder.Source {
    package func read<Value: BinaryReadable>(_ type: Value.Type = Value.self) throws -> Value { try Value(reading: self) }

    package func optional<Value: BinaryReadable>(_ type: Value.Type = Value.self) throws -> Value? {
        try flag() ? Value(reading: self) : nil
    }

    package func optionalString() throws -> String? { try optional(String.self) }

    package func array<Value: BinaryReadable>(of type: Value.Type = Value.self) throws -> [Value] {
        let count = try count()
        var values: [Value] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try Value(reading: self)) }
        return values
    }

    package func strings() throws -> [String] { try array(of: String.self) }

    /// The bytes left, as they are: the last field of what is read, decoded later if at all.
    package func rest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[position...])
    }

    /// A value of a type without a reader of its own, through `Decodable`.
    package func decodable<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try Value(from: BinaryDecoder.Reader(source: self))
    }

    /// A digest, stored as its 32 hex digits: read from the bytes without making a String of
    /// them, or a slice. A head holds three a part, and parsing them through slices of the
    /// buffer was the largest share of decoding a head in a one-comment sync's profile.
    package func digest() throws -> ContentDigest {
        guard try integer() == 32, bytes.count - position >= 32 else { throw Self.corrupt }
        let start = position
        let halves = bytes.withUnsafeBufferPointer { buffer -> (UInt64, UInt64)? in
            var high: UInt64 = 0, low: UInt64 = 0, invalid: UInt8 = 0
            for offset in 0..<16 {
                let digit = Self.hexValues[Int(buffer[start + offset])]
                invalid |= digit
                high = high << 4 | UInt64(digit & 0x0F)
            }
            for offset in 16..<32 {
                let digit = Self.hexValues[Int(buffer[start + offset])]
                invalid |= digit
                low = low << 4 | UInt64(digit & 0x0F)
            }
            return invalid & 0xF0 == 0 ? (high, low) : nil
        }
        guard let (high, low) = halves else { throw Self.corrupt }
        position += 32
        return ContentDigest(high: high, low: low)
    }

    /// Each byte's value as a hex digit, or 0xFF.
    private static let hexValues: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }
}

extension String: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws { self = try source.string() }
}

extension ContentDigest: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws { self = try source.digest() }
}

extension ISODate: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        guard let date = ISODate(try source.string()) else { throw BinaryDecoder.Source.corrupt }
        self = date
    }
}

extension SourceFile: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(absolutePath: try source.string(), displayPath: try source.string())
    }
}

extension PixelSize: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(width: try source.signed(), height: try source.signed())
    }
}

extension Layer: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(image: try source.read(), z: try source.signed(), x: try source.signed(), y: try source.signed(),
                  size: try source.read())
    }
}

extension Photo: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(file: try source.read(), sidecar: try source.optional(), id: try source.optionalString(),
                  caption: try source.optionalString(), author: try source.optionalString(), date: try source.optional(),
                  credit: try source.optionalString(), license: try source.optionalString(), showsLocation: try source.flag())
    }
}

extension PartOutline: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(slug: try source.string(), source: try source.digest(), name: try source.string(), layer: try source.read(),
                  tags: try source.strings(), photos: try source.array(), commentCount: try source.signed(),
                  textDigest: try source.digest(), descriptionDigest: try source.digest())
    }
}

extension RecentComments: BinaryReadable {
    package convenience init(reading source: BinaryDecoder.Source) throws {
        self.init(newest: try source.optional(), stored: BinaryBlob(bytes: try source.raw()))
    }
}

extension MachineHead: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(slug: try source.string(), folder: try source.read(), source: try source.digest(), name: try source.string(),
                  summary: try source.string(), canvas: try source.read(), tags: try source.strings(),
                  designer: try source.optionalString(), license: try source.optionalString(), updated: try source.optional(),
                  cover: try source.optional(), parts: try source.array(), photos: try source.array(),
                  commentCount: try source.signed(), textDigest: try source.digest(), descriptionDigest: try source.digest(),
                  recent: try source.read(),
                  commentIDs: try source.string(), manual: try source.decodable(), listing: try source.digest())
    }
}

extension Array: BinaryReadable where Element: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws { self = try source.array() }
}

extension MarkdownSource: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(text: try source.string(), file: try source.read(), firstLine: try source.signed(), origins: try source.array())
    }
}

extension MarkdownSource.LineOrigin: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(line: try source.signed(), file: try source.read(), fileLine: try source.signed())
    }
}

extension Comment: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(id: try source.string(), author: try source.string(), date: try source.read(), body: try source.read())
    }
}

extension RecentComment: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(part: try source.flag() ? try source.signed() : nil, position: try source.signed(), comment: try source.read())
    }
}

extension ContentCache.Entry: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(format: try source.string(), key: try source.digest(), signature: try source.digest(), slug: try source.string(),
                  folder: try source.read(), brief: try source.read(), head: try source.digest(), headLength: try source.signed(), text: try source.digest(),
                  diagnostics: try source.decodable(), parts: ContentCache.StoredPartSignatures(stored: source.rest()))
    }
}

/// An array of part signatures alone, for `StoredPartSignatures` to decode its bytes.
struct PartSignatureList: BinaryReadable {
    let values: [ContentCache.PartSignature]

    init(reading source: BinaryDecoder.Source) throws { values = try source.array() }
}

extension ContentCache.PartSignature: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(slug: try source.string(), signature: try source.digest())
    }
}

extension BinaryDecoder {
    /// `decode` for a type with a reader of its own.
    package func read<Value: BinaryReadable>(_ type: Value.Type, from data: Data) throws -> Value {
        try read(type, from: [UInt8](data))
    }

    package func read<Value: BinaryReadable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        let source = Source(bytes: bytes)
        let value = try Value(reading: source)
        guard source.position == source.bytes.count else { throw Source.corrupt }
        return value
    }
}

// A machine's text, read the same way: a changed machine's stored text is decoded by the
// review, by the build that takes its unchanged parts, and by the render of its pages, and
// through `Decodable` that was most of a one-comment sync's load step. Specs, a few short
// rows a part, still go through `Decodable`.

extension MachineText: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(description: try source.optional(), comments: try source.array(), parts: try source.array())
    }
}

extension MachineText.PartText: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(description: try source.optional(), specs: try source.decodable(), comments: try source.array())
    }
}
