import Foundation

/// Reads an image's pixel size from its header, without decoding it.
package enum ImageHeader {
    package enum Failure: Error, Equatable {
        case unsupportedFormat
        case truncated
        case noSize
    }

    package static let supportedExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "svg", "gif"]

    package static func size(of data: Data, pathExtension: String) throws(Failure) -> PixelSize {
        let bytes = [UInt8](data.prefix(pathExtension == "svg" ? 4096 : 65536))
        if pathExtension == "svg" { return try svgSize(String(decoding: bytes, as: UTF8.self)) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard bytes.count >= 24 else { throw .truncated }
            return PixelSize(width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
        }
        if bytes.starts(with: Array("GIF8".utf8)) {
            guard bytes.count >= 10 else { throw .truncated }
            return PixelSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
        }
        if bytes.starts(with: [0xFF, 0xD8]) { return try jpegSize(bytes) }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return try webpSize(bytes)
        }
        throw .unsupportedFormat
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The size the image shows at: an EXIF orientation of 5 to 8 turns it a quarter, as the
    /// image stage (libvips' autorotate) does when it decodes the layer. Reading the frame's
    /// size alone, a turned JPEG layer with an offset was placed at its unturned size.
    private static func jpegSize(_ bytes: [UInt8]) throws(Failure) -> PixelSize {
        var index = 2
        var orientation = 1
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { throw .noSize }
            let marker = bytes[index + 1]
            let length = bigEndian(bytes, index + 2, 2)
            if marker == 0xE1, index + 2 + length <= bytes.count {
                orientation = exifOrientation(Array(bytes[(index + 4)..<(index + 2 + length)])) ?? orientation
            }
            // SOF0-SOF15 carry the frame size; C4 (DHT), C8 and CC are not frames.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let width = bigEndian(bytes, index + 7, 2), height = bigEndian(bytes, index + 5, 2)
                return (5...8).contains(orientation) ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
            }
            index += 2 + length
        }
        throw .truncated
    }

    /// The orientation tag (0x0112) of IFD0 in an APP1 segment's "Exif" payload, or nil.
    private static func exifOrientation(_ segment: [UInt8]) -> Int? {
        guard segment.count >= 14, segment.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = Array(segment[6...])
        let little = tiff.starts(with: Array("II".utf8))
        guard little || tiff.starts(with: Array("MM".utf8)) else { return nil }
        func number(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= 0, offset + count <= tiff.count else { return nil }
            let slice = tiff[offset..<offset + count]
            return (little ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard let ifd = number(4, 4), let entries = number(ifd, 2) else { return nil }
        for entry in 0..<min(entries, 512) {
            let at = ifd + 2 + entry * 12
            guard let tag = number(at, 2) else { return nil }
            if tag == 0x0112 { return number(at + 8, 2) }
        }
        return nil
    }

    private static func webpSize(_ bytes: [UInt8]) throws(Failure) -> PixelSize {
        guard bytes.count >= 30 else { throw .truncated }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        func littleEndian(_ offset: Int, _ count: Int) -> Int {
            bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        switch chunk {
        case "VP8X": return PixelSize(width: littleEndian(24, 3) + 1, height: littleEndian(27, 3) + 1)
        case "VP8 ": return PixelSize(width: littleEndian(26, 2) & 0x3FFF, height: littleEndian(28, 2) & 0x3FFF)
        case "VP8L":
            let bits = littleEndian(21, 4)
            return PixelSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        default: throw .noSize
        }
    }

    /// The root element's width and height, or else its viewBox.
    private static func svgSize(_ text: String) throws(Failure) -> PixelSize {
        guard let open = text.range(of: "<svg") else { throw .unsupportedFormat }
        guard let close = text[open.upperBound...].firstIndex(of: ">") else { throw .truncated }
        let tag = String(text[open.upperBound..<close])
        func attribute(_ name: String) -> String? {
            guard let start = tag.range(of: " \(name)=\"") ?? tag.range(of: "\n\(name)=\"") else { return nil }
            guard let end = tag[start.upperBound...].firstIndex(of: "\"") else { return nil }
            return String(tag[start.upperBound..<end])
        }
        func number(_ value: String?) -> Int? {
            guard let value else { return nil }
            let digits = value.prefix { $0.isNumber || $0 == "." }
            return Double(digits).map { Int($0.rounded()) }
        }
        if let width = number(attribute("width")), let height = number(attribute("height")), width > 0, height > 0 {
            return PixelSize(width: width, height: height)
        }
        if let box = attribute("viewBox")?.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap({ Double($0) }),
           box.count == 4, box[2] > 0, box[3] > 0 {
            return PixelSize(width: Int(box[2].rounded()), height: Int(box[3].rounded()))
        }
        throw .noSize
    }
}
