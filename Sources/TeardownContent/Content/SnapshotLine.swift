import TeardownBase

/// One entry line of a stored input snapshot, `<signature> [<content digest>] <root>/<path>`,
/// cut from the file's bytes in place: the check of a build with nothing changed reads tens of
/// thousands of them, and as Strings the lines cost more than the `stat` calls they stand for.
package struct SnapshotLine {
    package let signature: UInt64
    /// For racy entries: the digest of the file's bytes or of the folder's entry names.
    package let content: ContentDigest?
    /// Where that digest sits in the bytes, with the space before it.
    package let contentRange: Range<Int>?
    package let root: Int
    /// The path below the root, as bytes.
    package let relative: ArraySlice<UInt8>
    /// The whole line, its line end included.
    package let range: Range<Int>

    /// Calls `visit` with each line of `range`; false when a line is cut short or does not parse.
    package static func each(in bytes: [UInt8], _ range: Range<Int>, rootCount: Int, _ visit: (SnapshotLine) -> Void) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            guard let end = bytes[index..<range.upperBound].firstIndex(of: UInt8(ascii: "\n")),
                  let line = SnapshotLine(bytes[index..<end], rootCount: rootCount, range: index..<(end + 1))
            else { return false }
            visit(line)
            index = end + 1
        }
        return true
    }

    private init?(_ line: ArraySlice<UInt8>, rootCount: Int, range: Range<Int>) {
        self.range = range
        // Fields found by scanning for spaces: `split` made an array a line, the largest part
        // of reading a stored snapshot once its `stat` calls were counted out.
        let space = UInt8(ascii: " ")
        guard let first = line.firstIndex(of: space), let signature = Self.number(line[line.startIndex..<first]) else { return nil }
        let rest = line[(first + 1)...]
        // Located paths always hold a slash after the root number; digests never do.
        let digestEnd = rest.startIndex + 32
        let hasDigest = rest.count > 32 && line[digestEnd] == space && !rest[..<digestEnd].contains(UInt8(ascii: "/"))
        let located: ArraySlice<UInt8>
        if hasDigest {
            guard let high = Self.number(rest[rest.startIndex..<rest.startIndex + 16]),
                  let low = Self.number(rest[(rest.startIndex + 16)..<digestEnd]) else { return nil }
            content = ContentDigest(high: high, low: low)
            contentRange = first..<digestEnd
            located = line[(digestEnd + 1)...]
        } else {
            content = nil
            contentRange = nil
            located = rest
        }
        guard let slash = located.firstIndex(of: UInt8(ascii: "/")), let root = Self.number(located[..<slash], radix: 10),
              root < rootCount
        else { return nil }
        self.signature = signature
        self.root = Int(root)
        relative = located[(slash + 1)...]
    }

    /// The entry the line stands for.
    package func entry() -> InputSnapshot.Entry {
        InputSnapshot.Entry(root: root, path: String(decoding: relative, as: UTF8.self), signature: signature, content: content)
    }

    /// A number written in at most 16 ASCII digits of `radix` (16, lowercase or not, or 10).
    package static func number(_ digits: ArraySlice<UInt8>, radix: UInt64 = 16) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            let number: UInt64
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): number = UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: number = UInt64(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: number = UInt64(digit - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + number
        }
        return value
    }
}
