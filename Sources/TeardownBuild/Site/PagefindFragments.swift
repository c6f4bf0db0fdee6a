import Foundation
import TeardownBase

/// Which result Pagefind gave each page of a bundle. Its search names a result by its page's
/// fragment, `fragment/<hash>.pf_fragment`: gzip of "pagefind_dcd" and the page's JSON, whose
/// first member is the page's URL. Nothing else Pagefind writes maps a URL to the hash, so the
/// fragments are read (40 µs each, in the index step, by the thread that ran Pagefind).
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
                  let json = body(data), let url = json["url"] as? String, let page = pageOf[url] else { return }
            found[page] = String(relative.dropLast(".pf_fragment".count))
        }
        return found
    }

    /// The filters of the result `hash` in the bundle in `folder`, as JSON; nil when it has none.
    static func filters(of hash: String, in folder: String) -> String? {
        guard let data = FileManager.default.contents(atPath: folder + "/fragment/" + hash + ".pf_fragment"),
              let filters = body(data)?["filters"],
              let encoded = try? JSONSerialization.data(withJSONObject: filters, options: [.sortedKeys]) else { return nil }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The URL Pagefind gives the page written at `path`: its folder's, for an index.html.
    static func url(of path: String) -> String {
        path == "index.html" ? "/" : path.hasSuffix("/index.html") ? "/" + path.dropLast("index.html".count) : "/" + path
    }

    private static func body(_ data: Data) -> [String: Any]? {
        guard let inflated = Gzip.decompress(data), inflated.starts(with: signature) else { return nil }
        return (try? JSONSerialization.jsonObject(with: inflated.dropFirst(signature.count))) as? [String: Any]
    }
}
