import Foundation

/// The order a reader expects of names: "Gear 2" before "Gear 10", without regard to case or
/// accents. Each name is turned into a key once, and keys compare as bytes.
///
/// Hand-written because `localizedStandardCompare`, called for each comparison of a sort,
/// showed in cold builds' profiles; its order also followed the locale of the machine that
/// built the site.
package struct NaturalOrder: Comparable {
    private let key: [UInt8]
    private let name: String

    package init(_ name: String) {
        self.name = name
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var key: [UInt8] = []
        key.reserveCapacity(folded.utf8.count + 4)
        var digits: [UInt8] = []
        func flushDigits() {
            guard !digits.isEmpty else { return }
            // A number is the digit marker, its length without leading zeros, then its digits:
            // where two keys first differ inside numbers, the longer number is the larger.
            let significant = digits.drop { $0 == UInt8(ascii: "0") }
            let number = significant.isEmpty ? [UInt8(ascii: "0")] : Array(significant)
            key.append(UInt8(ascii: "0"))
            key.append(UInt8(min(number.count, 255)))
            key += number
            digits.removeAll(keepingCapacity: true)
        }
        for byte in folded.utf8 {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits.append(byte)
            } else {
                flushDigits()
                key.append(byte)
            }
        }
        flushDigits()
        self.key = key
    }

    package static func < (lhs: NaturalOrder, rhs: NaturalOrder) -> Bool {
        lhs.key.lexicographicallyPrecedes(rhs.key) || (lhs.key == rhs.key && lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8))
    }
}
