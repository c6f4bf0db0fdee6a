import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownBuild

@Suite("Pagefind's metadata: gzip and CBOR")
struct CBORReaderTests {
    /// CBOR text of ASCII `value`.
    func text(_ value: String) -> [UInt8] { [0x60 | UInt8(value.utf8.count)] + Array(value.utf8) }

    /// A metadata file as Pagefind writes it: version, pages, then the index chunks.
    func metadata(_ chunks: [[String]], extra: [UInt8] = []) -> Data {
        var cbor: [UInt8] = [0x85] + text("1.5.2") + [0x82, 0x82] + text("en_p1") + [0x18, 0xAE] + [0x82] + text("en_p2") + [0x19, 0x01, 0x00]
        cbor += [0x80 | UInt8(chunks.count)]
        for chunk in chunks { cbor += [0x83] + chunk.flatMap(text) }
        cbor += [0x80, 0xA1] + text("k") + [0xF6] + extra
        return Gzip.compress(Data(Array("pagefind_dcd".utf8) + cbor))!
    }

    @Test("The chunks are read after the version and the pages, whatever follows them")
    func chunks() {
        #expect(SearchPreload.chunks(inMetadata: metadata([["0", "of", "en_1a"], ["off", "zz", "en_2b"]]))
            == [.init(from: "0", to: "of", hash: "en_1a"), .init(from: "off", to: "zz", hash: "en_2b")])
    }

    @Test("Anything else reads as no chunks, without reading past the end")
    func malformed() {
        let good = [UInt8](Gzip.decompress(metadata([["a", "b", "en_1"]]))!)
        for cut in stride(from: 12, to: good.count - 8, by: 3) {
            #expect(SearchPreload.chunks(inMetadata: Gzip.compress(Data(good[..<cut]))!) == nil, "cut at \(cut)")
        }
        #expect(SearchPreload.chunks(inMetadata: Data(good)) == nil, "not gzip")
        #expect(SearchPreload.chunks(inMetadata: Gzip.compress(Data("pagefind_dcX".utf8 + good.dropFirst(12)))!) == nil)
        #expect(SearchPreload.chunks(inMetadata: metadata([["a", "b", "../x"]])) == nil, "a hash that is not a plain name")
        // An indefinite-length array, and nesting deeper than any metadata's.
        var indefinite = CBORReader([0x9F, 0x01, 0xFF])
        let count = indefinite.arrayCount()
        #expect(count == nil)
        var deep = CBORReader([UInt8](repeating: 0x81, count: 100) + [0x01])
        let skipped = deep.skip()
        #expect(!skipped)
    }

    @Test("gzip with a file name in its header inflates; a wrong size or checksum in its trailer does not")
    func gzip() {
        let text = Data(String(repeating: "fan blade ", count: 300).utf8)
        var named = [UInt8](Gzip.compress(text)!)
        #expect(Gzip.decompress(Data(named)) == text)
        named[3] = 8 // FNAME: a zero-terminated name follows the header
        named.insert(contentsOf: Array("fan.txt".utf8) + [0], at: 10)
        #expect(Gzip.decompress(Data(named)) == text)
        named[named.count - 4] ^= 1
        #expect(Gzip.decompress(Data(named)) == nil)
        named[named.count - 4] ^= 1
        named[named.count - 8] ^= 1
        #expect(Gzip.decompress(Data(named)) == nil, "a checksum that is not the text's")
    }
}
