import Foundation

/// Substring search and replacement on UTF-8 bytes, for HTML that is rendered once per page
/// and searched for fixed markers. `String`'s own `contains(_:)` and `replacing(_:with:)` go
/// through Foundation or the string-processing library here, which cold builds' profiles
/// showed.
package enum ByteSearch {
    /// Where `needle` first starts in `bytes`, at or after `start`.
    package static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            guard let found = bytes[index...last].firstIndex(of: first) else { return nil }
            if bytes[found..<(found + needle.count)].elementsEqual(needle) { return found }
            index = found + 1
        }
        return nil
    }

    /// `bytes` with every `target` replaced by `replacement`, scanning left to right.
    package static func replacing(_ target: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard var found = find(target, in: bytes, from: 0) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        var index = 0
        while true {
            output += bytes[index..<found]
            output += replacement
            index = found + target.count
            guard let next = find(target, in: bytes, from: index) else { break }
            found = next
        }
        output += bytes[index...]
        return output
    }

    /// The lines of a text file's `bytes` after its first line, which must be `header`; nil
    /// when it is not. Empty lines are left out. Cut from the bytes in place: the stored
    /// manifests of a large site run to hundreds of thousands of lines, too many to make a
    /// String of each.
    package static func lines(after header: String, in bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        let newline = UInt8(ascii: "\n")
        guard let first = bytes.firstIndex(of: newline), bytes[..<first].elementsEqual(header.utf8) else { return nil }
        var lines: [ArraySlice<UInt8>] = []
        var index = first + 1
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: newline) ?? bytes.count
            if end > index { lines.append(bytes[index..<end]) }
            index = end + 1
        }
        return lines
    }

    /// Whether `text`'s UTF-8 starts with `prefix`'s. String's `hasPrefix` checks character
    /// boundaries, and the standard library's generic `starts(with:)` goes through iterators:
    /// either costs more than the comparison on every entry of a large snapshot.
    package static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        let count = prefix.utf8.count
        guard text.utf8.count >= count else { return false }
        return text.utf8.withContiguousStorageIfAvailable { textBytes in
            prefix.utf8.withContiguousStorageIfAvailable { prefixBytes in
                count == 0 || memcmp(textBytes.baseAddress!, prefixBytes.baseAddress!, count) == 0
            }
        }.flatMap { $0 } ?? text.utf8.starts(with: prefix.utf8)
    }

    /// How many times `byte` occurs in `bytes[range]`, found with the C library's `memchr`,
    /// which skips a word at a time: every walk counts the line ends of the stored snapshot.
    package static func count(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !range.isEmpty else { return 0 }
            var count = 0
            var cursor = UnsafeRawPointer(base + range.lowerBound)
            let end = UnsafeRawPointer(base + range.upperBound)
            while cursor < end, let found = memchr(cursor, Int32(byte), end - cursor) {
                count += 1
                cursor = UnsafeRawPointer(found) + 1
            }
            return count
        }
    }
}
