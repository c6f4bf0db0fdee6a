/// JSON written by hand into bytes, for the file a build writes once per machine and the
/// machine view reads: `machine.json`. JSONEncoder with sorted keys, through Codable's
/// containers, showed in cold builds' profiles. The writer leaves key order to its caller,
/// which writes keys sorted, so that the bytes are the same as JSONEncoder's with
/// `.sortedKeys` and `.withoutEscapingSlashes` (a test compares the two). Made `indented`, it
/// writes as `.prettyPrinted` adds to those: catalog.json's entries, one per machine, which
/// JSONEncoder made in most of the time of a rebuild that changes one.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// Whether the container being written has a member yet, innermost last.
    private var hasMember: [Bool] = []
    /// How many levels in the next line starts, when pretty-printed.
    private var depth: Int
    private let pretty: Bool

    package init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
        (depth, pretty) = (0, false)
    }

    /// Pretty-printed, two spaces a level, its lines after the first `depth` levels in.
    package init(capacity: Int = 4096, indented depth: Int) {
        bytes.reserveCapacity(capacity)
        (self.depth, pretty) = (depth, true)
    }

    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func object(_ members: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        hasMember.append(false)
        depth += 1
        members(&self)
        depth -= 1
        close(UInt8(ascii: "}"), empty: !hasMember.removeLast())
    }

    package mutating func array<Element>(_ elements: [Element], _ element: (inout JSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        depth += 1
        for (index, value) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline()
            element(&self, value)
        }
        depth -= 1
        close(UInt8(ascii: "]"), empty: elements.isEmpty)
    }

    /// Starts a member of the current object; its value is written next.
    package mutating func key(_ name: String) {
        if hasMember[hasMember.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMember[hasMember.count - 1] = true
        newline()
        string(name)
        if pretty { bytes += " : ".utf8 } else { bytes.append(UInt8(ascii: ":")) }
    }

    /// A line break and the next line's indent, when pretty-printed.
    private mutating func newline() {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes += repeatElement(UInt8(ascii: " "), count: 2 * depth)
    }

    /// The end of a container; pretty-printed, an empty one holds a blank line, as JSONEncoder writes it.
    private mutating func close(_ bracket: UInt8, empty: Bool) {
        if pretty && empty { bytes.append(UInt8(ascii: "\n")) }
        newline()
        bytes.append(bracket)
    }

    package mutating func null() { bytes += "null".utf8 }

    package mutating func member(_ name: String, _ value: String) { key(name); string(value) }
    package mutating func member(_ name: String, _ value: Int) { key(name); integer(value) }
    /// Nothing for nil, as JSONEncoder leaves out an absent optional.
    package mutating func member(_ name: String, _ value: String?) { if let value { member(name, value) } }

    package mutating func integer(_ value: Int) { bytes += String(value).utf8 }

    /// JSON written elsewhere, as it is: an array's items made once and kept.
    package mutating func raw(_ json: String) { bytes += json.utf8 }

    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
