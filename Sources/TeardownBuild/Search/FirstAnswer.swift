import Foundation
import TeardownBase

/// The search page's first answer, an index of Teardown's own beside Pagefind's: for each word
/// of the indexed pages, how many pages hold it and the best of them with their titles and
/// addresses (all of them for a rare word, so that a query's words can be intersected), in
/// files by the word's hash (`SearchWords.file`); and for each first letter, the words with
/// how common they are, for "no results" at once and "did you mean". A phone receives a
/// query's two files in one round trip, where Pagefind's answer takes four.
///
/// Words are matched as written, without Pagefind's stemming; Pagefind's results replace the
/// first answer when they come. Pages are ranked by their word's weight (a heading's word
/// before a comment's), then machines before parts before manual pages: not by how often a word
/// is on a page, so that a comment changes only the entries of the words its page gained or
/// lost. The postings are kept in the build store (`BuildStore.FirstAnswerChange`), so a build
/// rewrites only the files of the words that changed.
package enum FirstAnswer {
    /// A word's best pages listed with it.
    package static let best = 10
    /// A word on at most this many pages lists them all.
    package static let whole = 50

    /// One page holding a word: its key (`key(of:)`), its weight for the word, and its kind's order.
    package struct Posting: Sendable, Equatable {
        package let page: Int64
        package let weight: UInt8
        package let order: UInt8
    }

    /// An indexed page as the store keeps it: its words (`wordsText`), and what a result shows (`item`).
    package struct Page: Sendable, Equatable {
        package let id: Int64
        package let path: String
        package let item: String
        package let order: UInt8
        package let words: String
    }

    /// A page's key: 63 bits of the SHA-256 of its path. Pages that rank alike are listed in
    /// the order of their keys, so a word's entry is the same whatever order the pages were
    /// indexed in (a renamed machine's pages are new to the store, not to a full build).
    package static func key(of path: String) -> Int64 {
        let digest = SHA256.hash(data: Data(path.utf8))
        return Int64(bitPattern: digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }) & Int64.max
    }

    /// The page at `path` (an `index.html`), as a result shows it: `[url, title, kinds, machine]`.
    package static func page(path: String, text: IndexedText) -> Page {
        let url = String(path.dropLast("index.html".count))
        var json = JSONWriter(capacity: 128)
        json.raw("[")
        json.string(url)
        json.raw(",")
        json.string(text.title.isEmpty ? url : text.title)
        json.raw(",")
        json.array(text.types) { json, type in json.string(type) }
        json.raw(",")
        if let machine = text.machine { json.string(machine) } else { json.raw("null") }
        json.raw("]")
        return Page(id: key(of: path), path: path, item: json.text, order: order(text.types), words: wordsText(text.words))
    }

    /// Machines first, then parts, then the rest: a name's own page leads.
    static func order(_ types: [String]) -> UInt8 {
        if types.contains("machine") { return 0 }
        if types.contains("part") { return 1 }
        return types.contains("manual") ? 2 : 3
    }

    /// The postings best first: by weight, kind, then key.
    package static func ranked(_ postings: [Posting]) -> [Posting] {
        postings.sorted { ($0.weight, 255 - $0.order, Int64.max - $0.page) > ($1.weight, 255 - $1.order, Int64.max - $1.page) }
    }

    /// The pages a word's entry lists: every one for a rare word, else the best.
    package static func listed(_ postings: [Posting]) -> [Int64] {
        let ranked = ranked(postings)
        return (postings.count <= whole ? ranked : Array(ranked.prefix(best))).map(\.page)
    }

    /// A word's member of its words' file: `"fan":{"n":12,"all":1,"p":[item, ...]}`.
    package static func entry(_ word: String, postings: [Posting], items: [Int64: String]) -> String {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            json.key(word)
            json.object { json in
                json.member("n", postings.count)
                if postings.count <= whole { json.member("all", 1) }
                json.key("p")
                json.array(listed(postings)) { json, page in json.raw(items[page] ?? "null") }
            }
        }
        return String(json.text.dropFirst().dropLast())
    }

    /// A words' file from its words' entries, in word order.
    package static func wordsFile(_ entries: [String]) -> String { "{\"words\":{" + entries.joined(separator: ",") + "}}" }

    /// A vocabulary file: each word with how common it is (`SearchWords.commonness`).
    package static func vocabularyFile(_ words: [(word: String, commonness: Int)]) -> String {
        var json = JSONWriter(capacity: words.count * 12)
        json.object { json in
            json.key("words")
            json.array(words) { json, word in
                json.raw("[")
                json.string(word.word)
                json.raw(",")
                json.integer(word.commonness)
                json.raw("]")
            }
        }
        return json.text
    }

    // MARK: Stored forms

    /// Whether `item` is what `page` writes for the page at `path`. The store's rows are
    /// published into files visitors read, so one that a restored or copied cache forged is
    /// found here, as damage, not passed on.
    package static func isItem(_ item: String, path: String) -> Bool {
        guard let value = try? JSONSerialization.jsonObject(with: Data(item.utf8)) else { return false }  // not JSON: forged
        return isItem(value, url: String(path.dropLast("index.html".count)))
    }

    /// Whether `entry` is what `entry(_:postings:items:)` writes for `word`: its pages each an
    /// item of a page of the site (an address inside it).
    package static func isEntry(_ entry: String, of word: String) -> Bool {
        guard let value = try? JSONSerialization.jsonObject(with: Data(("{" + entry + "}").utf8)) as? [String: Any],  // as above
              value.count == 1, let fields = value[word] as? [String: Any], fields["n"] is Int,
              let pages = fields["p"] as? [Any], Set(fields.keys).isSubset(of: ["n", "all", "p"]) else { return false }
        return pages.allSatisfy { isItem($0, url: nil) }
    }

    /// `[url, title, kinds, machine]`, with `url` (nil: any address of a page inside the site).
    private static func isItem(_ value: Any, url: String?) -> Bool {
        guard let item = value as? [Any], item.count == 4, let address = item[0] as? String, item[1] is String,
              let kinds = item[2] as? [Any], kinds.allSatisfy({ $0 is String }), item[3] is String || item[3] is NSNull
        else { return false }
        if let url { return address == url }
        return !address.hasPrefix("/") && !address.contains(":") && !address.split(separator: "/").contains("..")
    }

    /// Postings as the store keeps them: a varint of the page's key, its weight, its kind's order.
    package static func blob(_ postings: [Posting]) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(postings.count * 11)
        for posting in postings {
            var value = UInt64(posting.page)
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
            bytes.append(posting.weight)
            bytes.append(posting.order)
        }
        return Data(bytes)
    }

    /// The postings of `blob`; nil when it is not one.
    package static func postings(_ blob: Data) -> [Posting]? {
        var postings: [Posting] = [], value: UInt64 = 0, shift: UInt64 = 0
        var iterator = blob.makeIterator()
        while let byte = iterator.next() {
            guard shift < 63 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 != 0 { shift += 7; continue }
            guard let weight = iterator.next(), let order = iterator.next() else { return nil }
            guard let page = Int64(exactly: value), order <= 3 else { return nil }
            postings.append(Posting(page: page, weight: weight, order: order))
            value = 0
            shift = 0
        }
        return shift == 0 && !postings.isEmpty ? postings : nil  // a word no page holds has no row
    }

    /// A page's words as the store keeps them: "word weight" lines.
    package static func wordsText(_ words: [String: UInt8]) -> String {
        words.keys.sorted().map { $0 + " " + String(words[$0]!) }.joined(separator: "\n")
    }

    /// The words of `text`; nil when it is not that form.
    package static func words(_ text: String) -> [String: UInt8]? {
        var words: [String: UInt8] = [:]
        for line in text.split(separator: "\n") {
            guard let space = line.lastIndex(of: " "), let weight = UInt8(line[line.index(after: space)...]) else { return nil }
            words[String(line[..<space])] = weight
        }
        return words
    }
}
