import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownMedia
@testable import TeardownBuild

/// The content cache's positional form: what goes in comes out equal, and damage is an error,
/// never a crash or a wrong value.
@Suite("Binary coder")
struct BinaryCoderTests {
    /// Machines of fixture sites with specs, photos, comments and a machine manual.
    private static func machines() -> [Machine] {
        ["specs", "photos", "minimal", "manual", "paginated"].flatMap { ContentLoader(siteRoot: Fixtures.site($0)).load().content.machines }
    }

    @Test("Loaded machines come back equal")
    func roundTrip() throws {
        let machines = Self.machines()
        #expect(machines.count >= 4)
        #expect(machines.contains { $0.parts.contains { !$0.specs.isEmpty } })
        let data = try BinaryEncoder().encode(machines)
        #expect(try BinaryDecoder().decode([Machine].self, from: data) == machines)
    }

    @Test("The head reader reads what the coder wrote, as Decodable does, and refuses every cut-short head")
    func headReader() throws {
        let heads = Self.machines().map(\.head)
        #expect(heads.contains { !$0.photos.isEmpty || $0.parts.contains { !$0.photos.isEmpty } })
        #expect(heads.contains { $0.recent.newest != nil } && heads.contains { !$0.tags.isEmpty })
        for head in heads {
            let headBytes = try BinaryEncoder().encode(head)
            let readHead = try BinaryDecoder().read(MachineHead.self, from: headBytes)
            #expect(readHead == (try BinaryDecoder().decode(MachineHead.self, from: headBytes)) && readHead == head)
            #expect(readHead.recent.all == head.recent.all && readHead.manual == head.manual)
            let brief = MachineBrief(head)
            let entry = ContentCache.Entry(format: ContentCache.format, key: ContentDigest(of: "key"), signature: ContentDigest(of: "signature"),
                                           slug: head.slug, folder: head.folder, brief: brief, head: ContentDigest(bytes: headBytes),
                                           headLength: headBytes.count, text: ContentDigest(of: "text"), diagnostics: Data("[]".utf8),
                                           parts: ContentCache.StoredPartSignatures(
                                               head.parts.map { ContentCache.PartSignature(slug: $0.slug, signature: $0.textDigest) }))
            let data = try BinaryEncoder().encode(entry)
            let read = try BinaryDecoder().read(ContentCache.Entry.self, from: data)
            #expect(read.brief == (try BinaryDecoder().decode(ContentCache.Entry.self, from: data)).brief && read.brief == brief)
            #expect(read.key == entry.key && read.signature == entry.signature && read.text == entry.text && read.head == entry.head)
            #expect(read.slug == head.slug && read.folder == head.folder && read.headLength == headBytes.count)
            #expect(read.diagnostics == entry.diagnostics && read.parts.decoded == entry.parts.decoded)
            #expect((try BinaryDecoder().decode(ContentCache.Entry.self, from: data)).parts.decoded == entry.parts.decoded)
            // The part signatures, last, are decoded when asked for: cut short there, they are none.
            for length in stride(from: 0, to: data.count, by: max(1, data.count / 300)) {
                if let cut = try? BinaryDecoder().read(ContentCache.Entry.self, from: data.prefix(length)) {
                    #expect(cut.parts.decoded == nil, "cut at \(length) of \(data.count) bytes")
                }
            }
            for length in stride(from: 0, to: headBytes.count, by: max(1, headBytes.count / 300)) {
                #expect(throws: (any Error).self) { try BinaryDecoder().read(MachineHead.self, from: headBytes.prefix(length)) }
            }
        }
    }

    @Test("The text reader reads what the coder wrote, as Decodable does, and refuses every cut-short text")
    func textReader() throws {
        let texts = Self.machines().map(\.text.value)
        #expect(texts.contains { $0.parts.contains { !$0.specs.isEmpty } } && texts.contains { $0.parts.contains { !$0.comments.isEmpty } })
        for text in texts {
            let data = try BinaryEncoder().encode(text)
            let read = try BinaryDecoder().read(MachineText.self, from: data)
            let decoded = try BinaryDecoder().decode(MachineText.self, from: data)
            #expect(read == text && read == decoded)
            for length in stride(from: 0, to: data.count, by: max(1, data.count / 200)) {
                #expect(throws: (any Error).self) { try BinaryDecoder().read(MachineText.self, from: data.prefix(length)) }
            }
        }
    }

    @Test("The image index's rows of a built site read back to the very bytes stored")
    func imageRows() throws {
        let site = Fixtures.copy(Fixtures.site("photos"))
        let cache = site + "/public.cache"
        try SiteBuilder(siteRoot: site, output: site + "/public", cacheFolder: cache, pagefind: .notInstalled).build()
        let index = try #require(ImageIndex.open(cache + "/images/index.sqlite"))
        let rows = try index.bundles()
        #expect(!rows.isEmpty)
        var outcomes = 0
        for (_, row) in rows {
            let read = try BinaryDecoder().read(BundleImages.self, from: row.images)
            #expect(try BinaryEncoder().encode(read) == row.images)
            outcomes += read.images.count { $0.outcome != nil }
            for length in stride(from: 0, to: row.images.count, by: max(1, row.images.count / 200)) {
                #expect(throws: (any Error).self) { try BinaryDecoder().read(BundleImages.self, from: row.images.prefix(length)) }
            }
        }
        #expect(outcomes > 0)
    }

    @Test("Every cut-short entry, and a forged count, is refused")
    func damage() throws {
        let machine = try #require(ContentLoader(siteRoot: Fixtures.site("specs")).load().content.machines.first)
        let data = try BinaryEncoder().encode(machine)
        for length in 0..<data.count {
            #expect(throws: (any Error).self) { try BinaryDecoder().decode(Machine.self, from: data.prefix(length)) }
        }
        #expect(throws: (any Error).self) { try BinaryDecoder().decode(Machine.self, from: data + Data([0])) }
        // An array claiming four billion elements, in an entry of a few bytes.
        #expect(throws: (any Error).self) { try BinaryDecoder().decode([String].self, from: Data([0xFF, 0xFF, 0xFF, 0xFF, 0])) }
        // A string's or a blob's length of 2^63, past Int.max: refused, where it trapped (found by `make fuzz`).
        let huge = Data(repeating: 0x80, count: 9) + Data([0x01])
        #expect(throws: (any Error).self) { try BinaryDecoder().decode(String.self, from: huge) }
        #expect(throws: (any Error).self) { try BinaryDecoder().decode(BinaryBlob.self, from: huge) }
    }
}
