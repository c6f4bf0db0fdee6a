import Foundation
import Testing
@testable import TeardownBuild

/// The build tells a text's words apart as the search page does: both are held to the same
/// vectors (`Tests/Vectors/search-words.json`; the browser's side in `search_test.py`), so a
/// Korean, Hindi or Japanese word a page holds is found, not answered "No results".
@Suite("Words, as the build and the search page tell them apart")
struct SearchWordsTests {
    struct Vector: Decodable {
        let what: String
        let text: String
        let words: [String]
    }

    static let vectors: [Vector] = {
        struct File: Decodable { let vectors: [Vector] }
        let path = Fixtures.demoSite + "/Tests/Vectors/search-words.json"
        return (try? JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path))).vectors) ?? []
    }()

    @Test("Every vector's words")
    func vectorsHold() {
        #expect(Self.vectors.count >= 10)
        for vector in Self.vectors {
            #expect(SearchWords.words(of: vector.text) == vector.words, "\(vector.what)")
        }
    }
}
