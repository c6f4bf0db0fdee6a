import Foundation

/// Removes metadata chunks from a WebP file. libvips 8.14 writes an EXIF chunk into every WebP
/// it saves, even with `strip` and with every metadata field removed from the image; a
/// published file must carry none.
package enum WebPMetadata {
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package var description: String { "\(path) is not a WebP file this build wrote" }
    }

    /// Chunks that hold metadata rather than pixels, and their flag bits in the VP8X header.
    private static let metadata: [String: UInt8] = ["EXIF": 0x08, "XMP ": 0x04, "ICCP": 0x20]

    package static func strip(_ path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(path: path) }
        let bytes = [UInt8](data)
        guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) else {
            throw Failure(path: path)
        }
        var kept: [UInt8] = []
        var cleared: UInt8 = 0
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let end = offset + 8 + size + (size & 1)
            guard end <= bytes.count else { throw Failure(path: path) }
            if let flag = metadata[name] {
                cleared |= flag
            } else {
                kept += bytes[offset..<end]
            }
            offset = end
        }
        guard cleared != 0 else { return }
        // VP8X, when present, is the first chunk; its flags announce the chunks that follow.
        if kept.starts(with: Array("VP8X".utf8)), kept.count > 8 { kept[8] &= ~cleared }
        let total = UInt32(kept.count + 4)
        let header = Array("RIFF".utf8) + withUnsafeBytes(of: total.littleEndian, Array.init) + Array("WEBP".utf8)
        // The file is still in the cache entry's hidden folder, which is renamed into place whole.
        try Data(header + kept).write(to: URL(fileURLWithPath: path))
    }
}
