import Foundation
import TeardownBase

/// The first files Pagefind asks for, named by the search page so that a phone fetches them
/// with the page's own scripts rather than one round trip after another: Pagefind's entry
/// file, then its metadata and WebAssembly, which the entry names. On a phone's network
/// (560 ms a round trip) those were three waits before a word's index could be asked for.
///
/// Pagefind asks for its entry file as `pagefind-entry.json?ts=<time>`, an address no page
/// can name in advance and no cache can answer, unless it is given a `metaCacheTag`. The tag
/// here is the entry's digest: it changes whenever the index does, so a tag never names an
/// old index's files. The search page is rendered again whenever the first shard is indexed
/// again (`SiteBuilder`), since only then are these names known.
package struct SearchPreload: Sendable, Equatable {
    /// Passed to Pagefind as `metaCacheTag`.
    package let tag: String
    /// Files of the first shard's folder, by name, in the order they are needed.
    package let files: [String]
    /// The first shard's index chunks, in order: a query's word is in the chunk whose first and
    /// last words it sorts between, and the page asks for that chunk with its first files.
    /// Empty when Pagefind's metadata could not be read.
    package let chunks: [Chunk]

    package struct Chunk: Sendable, Equatable {
        package let from: String
        package let to: String
        /// The file's name in the shard's `index/` folder, without `.pf_index`.
        package let hash: String
    }

    /// Reads the first shard's `pagefind-entry.json`, and the metadata file it names through
    /// `file`; nil when it is not Pagefind's entry, or names more than one language and not the
    /// site's (the page cannot tell which a visitor gets).
    package init?(entry: Data, language: String, file: (String) -> Data? = { _ in nil }) {
        guard let decoded = try? JSONDecoder().decode(Entry.self, from: entry) else { return nil }
        let chosen = decoded.languages.count == 1 ? decoded.languages.first?.value
            : decoded.languages[language] ?? decoded.languages[String(language.prefix { $0 != "-" })]
        guard let chosen, Self.isPlainName(chosen.hash), chosen.wasm.map(Self.isPlainName) ?? true else { return nil }
        tag = String(SHA256Hex.of(entry).prefix(16))
        let meta = "pagefind.\(chosen.hash).pf_meta"
        files = ["pagefind-entry.json?ts=\(tag)", meta] + (chosen.wasm.map { ["wasm.\($0).pagefind"] } ?? [])
        chunks = file(meta).flatMap(Self.chunks(inMetadata:)) ?? []
    }

    /// Pagefind's metadata file: gzip, then `pagefind_dcd`, then a CBOR array whose third item
    /// lists the index chunks as [first word, last word, hash] (Pagefind's `MetaIndex`).
    package static func chunks(inMetadata data: Data) -> [Chunk]? {
        let signature = Array("pagefind_dcd".utf8)
        guard let inflated = Gzip.decompress(data).map(Array.init), inflated.starts(with: signature) else { return nil }
        var reader = CBORReader(inflated, from: signature.count)
        guard let fields = reader.arrayCount(), fields >= 3, reader.skip(), reader.skip(), let count = reader.arrayCount() else { return nil }
        var chunks: [Chunk] = []
        for _ in 0..<count {
            guard reader.arrayCount() == 3, let from = reader.text(), let to = reader.text(), let hash = reader.text(),
                  isPlainName(hash) else { return nil }
            chunks.append(Chunk(from: from, to: to, hash: hash))
        }
        return chunks
    }

    private struct Entry: Decodable {
        package let languages: [String: Language]
    }

    private struct Language: Decodable {
        package let hash: String
        package let wasm: String?
    }

    /// Letters, digits, `_` and `-`: what Pagefind names its files with, and nothing a URL or
    /// HTML attribute would read differently.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F || $0 == 0x2D }
    }
}
