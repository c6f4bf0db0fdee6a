import Foundation
import TeardownBase
import TeardownContent

extension ImageCache {
    /// The outcome and source indexes of earlier versions, whole files, read once so that an
    /// upgrade makes no image again: the positional outcome index and the JSON one before it.
    func readLegacyIndexes() {
        if let data = FileManager.default.contents(atPath: root + "/sources") { legacySources = Self.sources(in: data) }
        // A legacy cache that does not decode is left for the new index to replace: images are keyed again.
        if let data = FileManager.default.contents(atPath: root + "/outcomes.bin"),
           let stored = try? BinaryDecoder().decode([LegacyStored].self, from: data) {
            legacyOutcomes = Dictionary(stored.map { ($0.key, $0.outcome) }, uniquingKeysWith: { first, _ in first })
        } else if let data = FileManager.default.contents(atPath: root + "/outcomes"),
                  let stored = try? JSONDecoder().decode([String: LegacyOutcome].self, from: data) { // (the same)
            legacyOutcomes = stored.mapValues(\.outcome)
        }
    }

    /// One line of the positional outcome index of earlier versions.
    struct LegacyStored: Codable {
        package let key: String
        package let outcome: Outcome
    }

    /// The source index's lines of earlier versions, "<path>\t<hex signature>\t<digest>".
    /// A line that does not parse is left out, which costs only a re-read.
    static func sources(in data: Data) -> [String: (signature: UInt64, digest: String)] {
        var sources: [String: (signature: UInt64, digest: String)] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 3, let signature = UInt64(String(decoding: fields[1], as: UTF8.self), radix: 16) else { continue }
            sources[String(decoding: fields[0], as: UTF8.self)] = (signature, String(decoding: fields[2], as: UTF8.self))
        }
        return sources
    }
}
