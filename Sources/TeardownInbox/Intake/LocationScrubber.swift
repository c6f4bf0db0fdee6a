import Foundation
import ZIPFoundation
import TeardownMedia

/// Removes where a photo was taken from its bytes, losslessly: the entries of every EXIF GPS
/// directory (and the values they point to) are zeroed in place, wherever a directory points
/// to one (IFD0, the Exif directory, IFD1 and the directories they chain to), and XMP packets
/// and Photoshop's resources (APP13, which can hold XMP and IPTC places), which can repeat the
/// position, are dropped, as is whatever follows a JPEG's end (a phone's second picture, with
/// its own position) with the index that names it (MPF). The pixels, the orientation and the
/// rest of the EXIF data stay as they were. Used by intake when the sender did not tick "share
/// location", so the position is never stored, not merely left unpublished.
package enum LocationScrubber {
    /// The image without its location, or nil when its structure cannot be walked safely.
    package static func scrub(_ data: Data, format: ImageFormat) -> Data? {
        // One copy, indexed from zero, which the edits below change in place.
        var bytes = Data(capacity: data.count)
        bytes.append(data)
        let scrubbed: Bool
        switch format {
        case .jpeg: scrubbed = jpeg(&bytes)
        case .png: scrubbed = png(&bytes)
        case .webp: scrubbed = webp(&bytes)
        case .gif, .svg: return nil
        }
        return scrubbed ? bytes : nil
    }

    // MARK: Containers

    private static let exifHeader = Array("Exif\0\0".utf8)
    private static let xmpHeaders = [Array("http://ns.adobe.com/xap/1.0/\0".utf8), Array("http://ns.adobe.com/xmp/extension/\0".utf8)]

    private static func jpeg(_ bytes: inout Data) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var offset = 2
        while offset + 2 <= bytes.count {
            guard bytes[offset] == 0xFF else { return false }
            let marker = bytes[offset + 1]
            // Fill bytes before a marker.
            if marker == 0xFF { offset += 1; continue }
            // The end of the picture: nothing after it is kept.
            if marker == 0xD9 {
                bytes.removeSubrange((offset + 2)...)
                return true
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            guard offset + 4 <= bytes.count else { return false }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { return false }
            let payload = offset + 4
            if marker == 0xDA {
                // A scan's data runs to the next marker that is not a stuffed byte or a restart.
                offset = nextMarker(bytes, after: end) ?? bytes.count
                continue
            }
            if marker == 0xE1, starts(bytes, at: payload, with: exifHeader) {
                guard tiff(&bytes, start: payload + exifHeader.count, end: end) else { return false }
            } else if marker == 0xE1 && xmpHeaders.contains(where: { starts(bytes, at: payload, with: $0) })
                        || marker == 0xED || marker == 0xE2 && starts(bytes, at: payload, with: Array("MPF\0".utf8)) {
                bytes.removeSubrange(offset..<end)
                continue
            }
            offset = end
        }
        // A picture cut short keeps what it has.
        return offset >= bytes.count
    }

    /// Where the marker after a scan's entropy-coded data starts, if any.
    private static func nextMarker(_ bytes: Data, after start: Int) -> Int? {
        var at = start
        while at + 1 < bytes.count {
            if bytes[at] == 0xFF, bytes[at + 1] != 0x00, !(0xD0...0xD7).contains(bytes[at + 1]), bytes[at + 1] != 0xFF { return at }
            at += 1
        }
        return nil
    }

    private static func png(_ bytes: inout Data) -> Bool {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard starts(bytes, at: 0, with: signature) else { return false }
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(read32(bytes, offset, bigEndian: true))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let data = offset + 8, end = data + length + 4
            guard end <= bytes.count else { return false }
            switch type {
            case "eXIf":
                guard tiff(&bytes, start: data, end: data + length) else { return false }
                let crc = bytes[offset + 4..<data + length].crc32(checksum: 0)
                write32(&bytes, data + length, crc, bigEndian: true)
            case "iTXt", "tEXt", "zTXt":
                // XMP, and the hex-encoded EXIF or XMP some tools write as text.
                let keyword = String(decoding: bytes[data..<min(data + 80, data + length)].prefix { $0 != 0 }, as: UTF8.self)
                if keyword == "XML:com.adobe.xmp" || keyword.hasPrefix("Raw profile type") {
                    bytes.removeSubrange(offset..<end)
                    continue
                }
            case "IEND":
                return true
            default:
                break
            }
            offset = end
        }
        return false
    }

    private static func webp(_ bytes: inout Data) -> Bool {
        guard bytes.count >= 12, starts(bytes, at: 0, with: Array("RIFF".utf8)), starts(bytes, at: 8, with: Array("WEBP".utf8))
        else { return false }
        var offset = 12
        var removedXMP = false
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let length = Int(read32(bytes, offset + 4, bigEndian: false))
            let data = offset + 8, end = data + length + (length & 1)
            guard data + length <= bytes.count else { return false }
            if type == "EXIF" {
                let start = starts(bytes, at: data, with: exifHeader) ? data + exifHeader.count : data
                guard tiff(&bytes, start: start, end: data + length) else { return false }
            } else if type == "XMP " {
                bytes.removeSubrange(offset..<min(end, bytes.count))
                removedXMP = true
                continue
            }
            offset = end
        }
        if removedXMP {
            write32(&bytes, 4, UInt32(bytes.count - 8), bigEndian: false)
            // The extended header's XMP flag must not announce a chunk that is gone.
            if starts(bytes, at: 12, with: Array("VP8X".utf8)), bytes.count > 20 { bytes[20] &= ~0x04 }
        }
        return true
    }

    // MARK: EXIF

    /// Zeroes the GPS directory of the TIFF structure in `start..<end`.
    private static func tiff(_ bytes: inout Data, start: Int, end: Int) -> Bool {
        guard end - start >= 8, end <= bytes.count else { return false }
        let bigEndian: Bool
        switch (bytes[start], bytes[start + 1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return false
        }
        func u16(_ at: Int) -> Int? {
            guard at >= start, at + 2 <= end else { return nil }
            return bigEndian ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at + 1]) << 8 | Int(bytes[at])
        }
        func u32(_ at: Int) -> Int? {
            guard at >= start, at + 4 <= end else { return nil }
            return Int(read32(bytes, at, bigEndian: bigEndian))
        }
        guard let first = u32(start + 4), u16(start + first) != nil else { return false }
        // Every directory that can be reached: IFD0 and the ones it chains to, the Exif and
        // interoperability directories, each GPS pointer in any of them.
        var pending = [first], visited = Set<Int>(), gps = Set<Int>()
        while let directory = pending.popLast() {
            guard visited.insert(directory).inserted, visited.count <= 64, let count = u16(start + directory) else { continue }
            for index in 0..<count {
                let entry = start + directory + 2 + index * 12
                guard let tag = u16(entry) else { return false }
                if tag == 0x8825, let at = u32(entry + 8) { gps.insert(at) }
                if tag == 0x8769 || tag == 0xA005, let at = u32(entry + 8) { pending.append(at) }
            }
            if let next = u32(start + directory + 2 + count * 12), next > 0 { pending.append(next) }
        }
        var zeroed: [Range<Int>] = []
        for directory in gps {
            guard let ranges = gpsRanges(at: start + directory, end: end, start: start, u16: u16, u32: u32) else { return false }
            zeroed += ranges
        }
        for range in zeroed { bytes.replaceSubrange(range, with: Data(count: range.count)) }
        return true
    }

    /// The bytes of one GPS directory at `directory` (an empty directory: readers see no
    /// entries, and nothing else moves) and of the values over four bytes it points to.
    private static func gpsRanges(at directory: Int, end: Int, start: Int, u16: (Int) -> Int?, u32: (Int) -> Int?) -> [Range<Int>]? {
        guard let entries = u16(directory), directory + 2 + entries * 12 <= end else { return nil }
        let sizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        var ranges = [directory..<directory + 2 + entries * 12]
        for index in 0..<entries {
            let entry = directory + 2 + index * 12
            guard let type = u16(entry + 2), let items = u32(entry + 4) else { return nil }
            let size = (sizes[type] ?? 1) * items
            if size > 4, let at = u32(entry + 8), at + size <= end - start { ranges.append(start + at..<start + at + size) }
        }
        return ranges
    }

    // MARK: Bytes

    private static func starts(_ bytes: Data, at offset: Int, with prefix: [UInt8]) -> Bool {
        offset >= 0 && offset + prefix.count <= bytes.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
    }

    private static func read32(_ bytes: Data, _ at: Int, bigEndian: Bool) -> UInt32 {
        let b = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }

    private static func write32(_ bytes: inout Data, _ at: Int, _ value: UInt32, bigEndian: Bool) {
        let ordered = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        for (index, byte) in (bigEndian ? ordered : ordered.reversed()).enumerated() { bytes[at + index] = byte }
    }
}
