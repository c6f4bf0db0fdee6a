import Foundation
import ZIPFoundation

/// gzip (RFC 1952) around ZIPFoundation's deflate (zlib): a file as a bucket stores it for
/// `Content-Encoding: gzip`, and the files Pagefind writes compressed.
package enum Gzip {
    /// The header holds no time and no name, so the same file always gives the same bytes, and
    /// an object's ETag can be compared with them.
    /// Nil only when zlib cannot allocate its state.
    package static func compress(_ data: Data) -> Data? {
        var output = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        output.reserveCapacity(data.count / 3 + 64)
        // Compressing bytes in memory fails only on a bug in the compressor; nil tells the caller.
        guard (try? Data.compress(size: Int64(data.count), bufferSize: 64 * 1024, provider: { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }, consumer: { output.append($0) })) != nil else { return nil }
        for value in [data.crc32(checksum: 0), UInt32(truncatingIfNeeded: data.count)] {
            withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
        }
        return output
    }

    /// The data inside one gzip member; nil when it is not gzip or does not inflate to the
    /// checksum and size its trailer gives.
    package static func decompress(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else { return nil }
        let flags = bytes[3]
        var start = 10
        if flags & 4 != 0 { // FEXTRA: a length, then that many bytes
            guard start + 2 <= bytes.count else { return nil }
            start += 2 + Int(bytes[start]) + Int(bytes[start + 1]) << 8
        }
        for flag: UInt8 in [8, 16] where flags & flag != 0 { // FNAME, FCOMMENT: zero-terminated
            guard let end = bytes[min(start, bytes.count)...].firstIndex(of: 0) else { return nil }
            start = end + 1
        }
        if flags & 2 != 0 { start += 2 } // FHCRC
        guard start <= bytes.count - 8 else { return nil }
        let deflated = data.subdata(in: start..<bytes.count - 8)
        var inflated = Data()
        // Bytes that do not inflate are not gzip of ours: nil tells the caller.
        guard let checksum = try? Data.decompress(size: Int64(deflated.count), bufferSize: 64 * 1024, skipCRC32: false, provider: { position, size in
            // Inflating asks for whole buffers, past the end too.
            deflated.subdata(in: min(Int(position), deflated.count)..<min(Int(position) + size, deflated.count))
        }, consumer: { inflated.append($0) }) else { return nil }
        func trailer(_ offset: Int) -> Int { bytes[(offset)..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
        return Int(checksum) == trailer(bytes.count - 8) && inflated.count & 0xFFFF_FFFF == trailer(bytes.count - 4) ? inflated : nil
    }
}
