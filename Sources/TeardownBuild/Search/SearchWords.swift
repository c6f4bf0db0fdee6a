import Foundation
import TeardownBase
import TeardownContent

/// How the first-answer index (`FirstAnswer`) files words, as search.js looks them up: the
/// words of a text, the file a word is in, and the file of the words starting with a letter.
package enum SearchWords {
    /// The words of `text`, as the search page tells them apart too (first-answer.mustache;
    /// both are held to `Tests/Vectors/search-words.json`): lower case, canonical decomposition,
    /// nonspacing marks (accents, dakuten, a virama) taken off, runs of letters, digits and
    /// spacing or enclosing marks (a Devanagari vowel sign is part of its word), composed again
    /// (Hangul syllables), of two code points or more.
    package static func words(of text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text.utf8) }
        var words: [String] = [], word = String.UnicodeScalarView()
        func end() {
            let composed = String(word).precomposedStringWithCanonicalMapping
            if composed.unicodeScalars.count > 1 { words.append(composed) }
            word.removeAll()
        }
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark: continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .spacingMark, .enclosingMark:
                word.append(scalar)
            default:
                end()
            }
        }
        end()
        return words
    }

    private static func asciiWords(_ bytes: String.UTF8View) -> [String] {
        var words: [String] = [], word: [UInt8] = []
        for var byte in bytes {
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            if (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                word.append(byte)
            } else {
                if word.count > 1 { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
            }
        }
        if word.count > 1 { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// Text with its runs of white space made one space, trimmed: a heading as a result shows it.
    package static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The number of words' files for a catalog of `items` machines and parts: a power of two,
    /// about one file for 40 items, so that a file stays a few kilobytes (a phone on a slow
    /// network receives it in the round trip it asks in). It changes only when the catalog
    /// doubles or halves; every file is then made again.
    package static func fileCount(items: Int) -> Int {
        var count = 16
        while count * 40 < items && count < 1 << 14 { count <<= 1 }
        return count
    }

    /// The words' file a word is in: FNV-1a of its UTF-8 bytes, which search.js computes the same way.
    package static func file(of word: String, count: Int) -> Int {
        Int(FNV1a.hash(word) % UInt32(count))
    }

    /// The vocabulary file of the words starting as `word` does: its first letter or digit, or
    /// "other" for a word in another script.
    package static func vocabularyKey(of word: String) -> String {
        guard let first = word.utf8.first, (first >= 0x61 && first <= 0x7A) || (first >= 0x30 && first <= 0x39) else { return "other" }
        return String(UnicodeScalar(first))
    }

    /// How common a word is, as the vocabulary tells it: 1 for one page, 2 for two or three,
    /// and so on. Coarse, so that a comment rarely changes a vocabulary file.
    package static func commonness(_ pages: Int) -> Int { Int.bitWidth - max(1, pages).leadingZeroBitCount }

    /// `search/first/words-<file>.json`.
    package static func wordsPath(_ file: Int) -> String { folder + "words-" + String(file, radix: 16) + ".json" }
    /// `search/first/vocabulary-<key>.json`.
    package static func vocabularyPath(_ key: String) -> String { folder + "vocabulary-" + key + ".json" }

    /// The folder of the first-answer files, from the site's root.
    package static let folder = String(Routes.search.value.dropFirst()) + "first/"
}
