import Foundation

/// A place in an S3-compatible store, `s3://BUCKET[/PREFIX]`: where a deploy goes, or a shared inbox.
public struct S3Location: Sendable, Equatable {
    public let bucket: String
    /// Object names start with it; empty, or ending in "/".
    public let prefix: String
    /// The store's base address, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`.
    public let endpoint: String
    public let region: String

    /// Reads `s3://BUCKET[/PREFIX]`; nil with the reason when it is not one.
    public static func parse(_ text: String, endpoint: String?, region: String) -> Result<S3Location, StoreFailure> {
        guard text.hasPrefix("s3://") else { return .failure(StoreFailure("\(text) is not an s3://BUCKET[/PREFIX] address")) }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        // The rules every S3-compatible store shares: 3 to 63 lowercase letters, digits, dots and dashes.
        guard (3...63).contains(bucket.count),
              bucket.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == ".") }),
              bucket.first?.isLetter == true || bucket.first?.isNumber == true else {
            return .failure(StoreFailure("\(text): '\(bucket)' is not a bucket name (3 to 63 lowercase letters, digits, dots and dashes)"))
        }
        var prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
        if prefix.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) {
            return .failure(StoreFailure("\(text): a prefix cannot hold '.' or '..'"))
        }
        if !prefix.isEmpty { prefix += "/" }
        var base = endpoint ?? "https://s3.\(region).amazonaws.com"
        guard let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            return .failure(StoreFailure("--endpoint \(Self.redacted(base)) is not an http:// or https:// address"))
        }
        while base.hasSuffix("/") { base.removeLast() }
        return .success(S3Location(bucket: bucket, prefix: prefix, endpoint: base, region: region))
    }

    /// The address of an object, path-style, which every S3-compatible store answers.
    package func url(of key: String, query: String = "") -> String {
        endpoint + "/" + bucket + "/" + Self.encode(key) + (query.isEmpty ? "" : "?" + query)
    }

    public var description: String { "s3://\(bucket)/\(prefix)" }

    /// The endpoint as messages show it: without a user or password it may hold.
    public var shownEndpoint: String { Self.redacted(endpoint) }

    /// `address` with its user information (`user:pass@`) replaced by "…@".
    package static func redacted(_ address: String) -> String {
        guard let scheme = address.range(of: "://") else { return address }
        let rest = address[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return address }
        return String(address[..<scheme.upperBound]) + "…@" + String(rest[rest.index(after: at)...])
    }

    /// Percent-encodes everything but unreserved characters and "/", as SigV4 wants a path.
    package static func encode(_ text: String, keepingSlash: Bool = true) -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        if keepingSlash { allowed.insert("/") }
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// Why a request to an object store failed, in words that name the store and never the credentials.
public struct StoreFailure: Error, CustomStringConvertible, Sendable {
    public let description: String

    package init(_ description: String) {
        self.description = description
    }
}
