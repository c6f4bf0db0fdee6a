import Foundation
import TeardownBase
import TeardownContent

// Hand-written readers of the image index's rows, in the layout `BinaryEncoder` writes for
// their `Codable` conformances (see MachineHead+Binary.swift for the reader itself). Kept by a
// profile: every build decodes every bundle's row, two outcomes a part, and through
// `Decodable` that was most of the image step's own time in a one-comment sync.
// A test reads real rows both ways and compares them.

extension BundleImages: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(signature: try source.optionalString(), images: try source.array(), cover: try source.optional())
    }
}

extension BundleImages.Image: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(path: try source.string(), key: try source.optionalString(), outcome: try source.optional())
    }
}

extension ImageCache.Outcome: BinaryReadable {
    /// An unkeyed container: its count, then a kind and the kind's values.
    package init(reading source: BinaryDecoder.Source) throws {
        let count = try source.count()
        switch (try source.signed(), count) {
        case (0, 2): self = .photo(try source.read())
        case (1, 2): self = .layer(try source.read())
        case (2, 3): self = .failed(.stored(code: try source.signed(), text: try source.string()))
        default: throw BinaryDecoder.Source.corrupt
        }
    }
}

extension ProcessedPhoto: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(key: try source.string(), width: try source.signed(), height: try source.signed(), variants: try source.array(),
                  original: try source.optionalString(), format: try source.read(), metadata: try source.read())
    }
}

extension ProcessedPhoto.Variant: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(width: try source.signed(), height: try source.signed(), webp: try source.string(), jpeg: try source.string())
    }
}

extension ImageFormat: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        guard let format = ImageFormat(rawValue: try source.string()) else { throw BinaryDecoder.Source.corrupt }
        self = format
    }
}

extension PhotoMetadata: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        func number() throws -> Double? { try source.flag() ? Double(bitPattern: try source.integer()) : nil }
        self.init(camera: try source.optionalString(), taken: try source.optionalString(), latitude: try number(),
                  longitude: try number())
    }
}

extension ProcessedLayer: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        self.init(key: try source.string(), published: try source.optionalString(), mask: try source.optional())
    }
}

extension HitMask: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        x = try source.signed()
        y = try source.signed()
        width = try source.signed()
        height = try source.signed()
        columns = try source.signed()
        rows = try source.signed()
        bits = try source.string()
    }
}
