import Foundation
import GRDB
import TeardownBase
@testable import TeardownBuild

/// Damages the build store or the image index of a built site, as a disk, a copied cache or a
/// killed tool would, then builds: every build must succeed (one that finds damage starts over
/// once, by itself), delete nothing outside the output, and publish what a full build makes.
///
/// The first input byte picks the file (bit 0), the content's variant (bit 1) and the kind of
/// damage (bits 2-3): a page of random bytes, a page of zeros, or the file cut short at a page.
/// The next two bytes pick the page; the rest are the random bytes.
///
/// With bit 4 set, a search row is forged instead, in a site built with Pagefind: bits 2-3 pick
/// the column (a word's entry or postings, a page's result item or words), the next two bytes
/// the row, and the rest are what it is set to. Those rows are published into files visitors
/// read: a forged one is found as damage, or, if it has the very form the build writes, names
/// only the site's own pages (`checkFirstAnswer`).
enum StoreFuzz {
    private struct Built {
        let root: String
        var site: String { root + "/site" }
        var output: String { root + "/public" }
        var cache: String { root + "/cache" }
        var sentinel: String { root + "/outside/kept.txt" }
        let pagefind: SiteBuilder.PagefindLookup
        let references: [[String: Data]]
    }

    static let variants = ["A box.\n", "A box, edited with a second line.\n\nAnd a paragraph on its lid.\n"]

    private static let built = build(named: "store", pagefind: .notInstalled)
    /// The same site with its search index, for forged search rows.
    private static let searched = build(named: "search", pagefind: .automatic)

    private static func build(named name: String, pagefind: SiteBuilder.PagefindLookup) -> Built {
        let root = NSTemporaryDirectory() + "teardown-fuzz-\(name)-\(getpid())"
        atexit { for name in ["store", "search"] { FileSystem.discard(NSTemporaryDirectory() + "teardown-fuzz-\(name)-\(getpid())") } }
        try! FileManager.default.copyItem(atPath: FuzzTargets.site, toPath: root + "/site")
        try! FileManager.default.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root + "/outside/kept.txt", contents: Data("kept\n".utf8))
        var references: [[String: Data]] = []
        for index in variants.indices {
            setVariant(index, site: root + "/site")
            let folder = root + "/reference-\(index)"
            _ = try! SiteBuilder(siteRoot: root + "/site", output: folder, full: true, cacheFolder: folder + ".cache",
                                 pagefind: pagefind).build()
            references.append(snapshot(folder, search: pagefind))
        }
        let built = Built(root: root, pagefind: pagefind, references: references)
        _ = try! builder(built).build()
        return built
    }

    private static func builder(_ built: Built) -> SiteBuilder {
        SiteBuilder(siteRoot: built.site, output: built.output, cacheFolder: built.cache, pagefind: built.pagefind)
    }

    private static func setVariant(_ index: Int, site: String) {
        _ = FileManager.default.createFile(atPath: site + "/content/machines/box/description.md", contents: Data(variants[index].utf8))
    }

    static func run(_ input: [UInt8]) {
        guard input.count >= 3 else { return }
        let forging = input[0] & 0x10 != 0
        let built = forging ? searched : built
        let layout = CacheLayout(root: built.cache)
        let path = forging || input[0] & 1 == 0 ? layout.output(built.output).store : layout.images + "/index.sqlite"
        let row = Int(input[1]) << 8 | Int(input[2]), bytes = Array(input.dropFirst(3))
        if forging {
            forge(path, column: Int(input[0] >> 2) & 3, row: row, bytes: bytes)
        } else {
            damage(path, kind: Int(input[0] >> 2) % 3, page: row, bytes: bytes)
        }
        let variant = Int(input[0] >> 1) & 1
        setVariant(variant, site: built.site)
        do {
            _ = try builder(built).build()
        } catch {
            fatalError("a build after damage to \(path) failed: \(error)")
        }
        precondition(FileManager.default.fileExists(atPath: built.sentinel), "a file outside the output was deleted")
        var published = snapshot(built.output, search: built.pagefind), reference = built.references[variant]
        if forging {
            checkFirstAnswer(published, reference: reference)
            let folder = SearchWords.folder
            published = published.filter { !$0.key.hasPrefix(folder) }
            reference = reference.filter { !$0.key.hasPrefix(folder) }
        }
        precondition(published == reference,
                     "the site differs from a full build at \(Set(published.keys).union(reference.keys).filter { published[$0] != reference[$0] }.sorted())")
    }

    /// A forged row of the form the build writes (a page's title, its list of words) can be
    /// published until that page changes: the first answer's files must then still be JSON whose
    /// every result is a page of the site. Any other forged row is found as damage, and the
    /// build that starts over publishes a full build's files.
    private static func checkFirstAnswer(_ published: [String: Data], reference: [String: Data]) {
        for (path, data) in published where path.hasPrefix(SearchWords.folder) {
            guard let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                preconditionFailure("\(path) is not JSON")
            }
            guard path.contains("/words-") else { continue }
            for case let (_, entry as [String: Any]) in file["words"] as? [String: Any] ?? [:] {
                for case let item as [Any] in entry["p"] as? [Any] ?? [] {
                    let address = item.first as? String ?? ""
                    precondition(reference[address + "index.html"] != nil, "\(path) lists '\(address)', not a page of the site")
                }
            }
        }
    }

    /// One page of the file as `kind` says; the build left no write-ahead log (its connection closed).
    private static func damage(_ path: String, kind: Int, page: Int, bytes: [UInt8]) {
        guard let handle = FileHandle(forUpdatingAtPath: path) else { return }
        defer { try? handle.close() }  // the damage is done or not; either is a case the build must take
        let size = Int((try? handle.seekToEnd()) ?? 0)  // an unreadable size damages nothing
        let pageSize = 4096
        guard size >= pageSize else { return }
        let offset = (page % (size / pageSize)) * pageSize
        switch kind {
        case 0:
            var random = bytes.isEmpty ? [0xA5] : bytes
            while random.count < pageSize { random += random }
            try? handle.seek(toOffset: UInt64(offset))  // a failed seek writes at the end: still damage
            try? handle.write(contentsOf: Data(random.prefix(pageSize)))  // as above
        case 1:
            try? handle.seek(toOffset: UInt64(offset))  // as above
            try? handle.write(contentsOf: Data(count: pageSize))  // as above
        default:
            try? handle.truncate(atOffset: UInt64(offset))  // as above
        }
    }

    /// Sets one search row's `column` to `bytes`, as a restored or copied store could hold it.
    private static func forge(_ path: String, column: Int, row: Int, bytes: [UInt8]) {
        let (table, key, name) = [("search_words", "word", "entry"), ("search_words", "word", "postings"),
                                  ("search_pages", "id", "item"), ("search_pages", "id", "words")][column]
        let value: any DatabaseValueConvertible = name == "postings" ? Data(bytes) : String(decoding: bytes, as: UTF8.self)
        guard let queue = try? DatabaseQueue(path: path) else { return }  // a store that cannot be opened is made anew
        defer { try? queue.close() }  // the build opens it again either way
        _ = try? queue.write { db in  // a row not forged (a store without one) is a build like any other
            guard let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)"), count > 0 else { return }
            try db.execute(sql: "UPDATE \(table) SET \(name) = ? WHERE \(key) = (SELECT \(key) FROM \(table) ORDER BY \(key) LIMIT 1 OFFSET ?)",
                           arguments: [value, row % count])
        }
    }

    /// Every file of the site at `root`; with a search index, but for Pagefind's files and the search
    /// page naming them, whose names depend on the order Pagefind read the pages in.
    private static func snapshot(_ root: String, search: SiteBuilder.PagefindLookup) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            if case .automatic = search, path.hasPrefix("pagefind/") || path == "search/index.html" { continue }
            if let data = FileManager.default.contents(atPath: root + "/" + path), !FileSystem.isDirectory(root + "/" + path) {
                files[path] = data
            }
        }
        return files
    }
}
