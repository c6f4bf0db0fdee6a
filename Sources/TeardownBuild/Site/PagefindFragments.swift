import Foundation
import TeardownBase

/// Which result Pagefind gave each page of a bundle. Its search names a result by its page's
/// fragment, `fragment/<hash>.pf_fragment`: gzip of "pagefind_dcd" and the page's JSON, whose
/// first member is the page's URL. Nothing else Pagefind writes maps a URL to the hash, so the
/// fragments are read in the index step, by the thread that ran Pagefind (a small share of a
/// cold build's profile: Benchmarks/README.md, "The recent shard").
enum PagefindFragments {
    private static let signature = Array("pagefind_dcd".utf8)

    /// Each page's hash by the page's output path, for the `pages` of the bundle in `folder`.
    static func results(in folder: String, pages: [String]) -> [String: String] {
        var pageOf: [String: String] = [:]
        for page in pages { pageOf[url(of: page)] = page }
        var found: [String: String] = [:]
        let fragments = folder + "/fragment"
        _ = FileSystem.walk(fragments) { relative, status in
            guard !status.isDirectory, relative.hasSuffix(".pf_fragment"),
                  let data = FileManager.default.contents(atPath: fragments + "/" + relative),
                  let url = url(in: data), let page = pageOf[url] else { return }
            found[page] = String(relative.dropLast(".pf_fragment".count))
        }
        return found
    }

    /// The filters of the result `hash` in the bundle in `folder`, as JSON; nil when it has none.
    static func filters(of hash: String, in folder: String) -> String? {
        guard let data = FileManager.default.contents(atPath: folder + "/fragment/" + hash + ".pf_fragment"),
              let inflated = Gzip.decompress(data), let filters = body(inflated: inflated)?["filters"],
              // What JSON parsing gave encodes again; a fragment that does not parse has no filters to take off.
              let encoded = try? JSONSerialization.data(withJSONObject: filters, options: [.sortedKeys]) else { return nil }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The URL Pagefind gives the page written at `path`: its folder's, for an index.html.
    static func url(of path: String) -> String {
        path == "index.html" ? "/" : path.hasSuffix("/index.html") ? "/" + path.dropLast("index.html".count) : "/" + path
    }

    private static let urlMember = Array("pagefind_dcd{\"url\":\"".utf8)

    /// The fragment's URL: serde writes the page's members in their declared order, the URL
    /// first, so the JSON is parsed only when it holds an escape.
    private static func url(in data: Data) -> String? {
        guard let inflated = Gzip.decompress(data) else { return nil }
        return inflated.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            guard bytes.starts(with: urlMember),
                  let end = bytes[urlMember.count...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else { return nil }
            guard bytes[end] == UInt8(ascii: "\"") else { return body(inflated: inflated)?["url"] as? String }
            return String(decoding: bytes[urlMember.count..<end], as: UTF8.self)
        }
    }

    private static func body(inflated: Data) -> [String: Any]? {
        guard inflated.starts(with: signature) else { return nil }
        // A fragment that is not Pagefind's JSON names no page: its result is only not left out.
        return (try? JSONSerialization.jsonObject(with: inflated.dropFirst(signature.count))) as? [String: Any]
    }
}
