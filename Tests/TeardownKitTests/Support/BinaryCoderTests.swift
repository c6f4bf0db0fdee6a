import Foundation
import Testing
@testable import TeardownKit

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
