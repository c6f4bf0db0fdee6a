import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TeardownBase

/// The S3 requests deploy, intake and sync make (get, put, delete, list, multipart upload), signed by
/// libcurl, with retries for what a store or a network does now and then: 5xx, 429,
/// timeouts and dropped connections are tried again, five times in all, with growing pauses.
package struct S3Store: Sendable {
    package let location: S3Location
    package let credentials: S3Credentials
    /// The longest a single request may take.
    package var requestSeconds = 300
    /// When every request of the run must be done, retries included (`--timeout`): a store
    /// sending two bytes a second kept a sync with `--timeout 5` going for minutes.
    package var deadline: Date?

    /// An object as a listing shows it.
    package struct Listed: Sendable {
        package let key: String
        package let size: Int
        package let etag: String
        /// When the store wrote it, by the store's clock (ISO 8601, as listed): "" when not said.
        package var modified = ""
    }

    /// Pages in a row without an object before a listing is taken to be stuck: a store may send
    /// a few (AWS does past many deleted versions), not hundreds.
    package static let emptyPagesAllowed = 100

    /// Objects past this size go up in parts.
    package static let multipartThreshold = 64 << 20
    package static let partSize = 16 << 20

    // MARK: Requests

    package func get(_ key: String, session: Curl.Session) throws(StoreFailure) -> Data? {
        let answer = try send("GET", key: key, session: session)
        if answer.status == 404 { return nil }
        try check(answer, doing: "read \(key)")
        return answer.body
    }

    @discardableResult
    package func put(_ key: String, body: Data, headers: [String], session: Curl.Session) throws(StoreFailure) -> String {
        if body.count > Self.multipartThreshold { return try putInParts(key, body: body, headers: headers, session: session) }
        let answer = try send("PUT", key: key, headers: headers, body: body, session: session)
        try check(answer, doing: "upload \(key)")
        return answer.etag
    }

    package func delete(_ key: String, session: Curl.Session) throws(StoreFailure) {
        let answer = try send("DELETE", key: key, session: session)
        // Already gone is what a deletion wants.
        if answer.status != 404 { try check(answer, doing: "delete \(key)") }
    }

    /// Every object whose name starts with `prefix`, a thousand a page.
    package func list(prefix: String, session: Curl.Session) throws(StoreFailure) -> [Listed] {
        // The store is asked for names that start with the prefix's first segment, without its
        // "/", and the rest is filtered here: a "/" in a query is encoded %2F for AWS, and
        // moto_server checks the signature of such a query as if it were not, so one of the two
        // would refuse the request.
        try list(asking: String(prefix.prefix { $0 != "/" }), startAfter: nil, session: session).filter { $0.key.hasPrefix(prefix) }
    }

    /// Every object whose name starts with `asking` and comes after `startAfter`, a thousand a
    /// page. Values are encoded as AWS wants them, "/" as %2F.
    package func list(asking prefix: String, startAfter: String?, session: Curl.Session) throws(StoreFailure) -> [Listed] {
        var objects: [Listed] = []
        var token: String?
        // A listing must move on: a store that hands back a token it gave before, keys that do
        // not come after the last page's, or page upon page of nothing, would keep the loop
        // asking for ever (a hostile one made 2,901 requests in 20 s).
        var tokens = Set<String>()
        var emptyPages = 0
        func stuck(_ why: String) -> StoreFailure {
            StoreFailure("the listing of \(location.description) does not end: \(why), after \(objects.count) objects")
        }
        repeat {
            // SigV4 wants the query's parameters sorted, as here.
            var query = ""
            if let token { query += "continuation-token=\(S3Location.encode(token, keepingSlash: false))&" }
            query += "list-type=2&prefix=\(S3Location.encode(prefix, keepingSlash: false))"
            if let startAfter { query += "&start-after=\(S3Location.encode(startAfter, keepingSlash: false))" }
            let answer = try send("GET", key: "", query: query, session: session)
            try check(answer, doing: "list \(location.description)")
            let page = ListingParser.parse(answer.body)
            if let next = page.next, !tokens.insert(next).inserted { throw stuck("the store gave a continuation token again") }
            // Keys come in UTF-8 binary order, page after page.
            if let first = page.objects.first, let last = objects.last,
               !Array(last.key.utf8).lexicographicallyPrecedes(Array(first.key.utf8)) {
                throw stuck("a page starts at \(first.key), not after \(last.key)")
            }
            emptyPages = page.objects.isEmpty ? emptyPages + 1 : 0
            if page.next != nil, emptyPages >= Self.emptyPagesAllowed {
                throw stuck("\(emptyPages) pages in a row held no object")
            }
            objects += page.objects
            token = page.next
        } while token != nil
        return objects
    }

    // MARK: Multipart

    private func putInParts(_ key: String, body: Data, headers: [String], session: Curl.Session) throws(StoreFailure) -> String {
        let started = try send("POST", key: key, query: "uploads=", headers: headers.filter { !$0.hasPrefix("x-amz-content-sha256") },
                               body: Data(), session: session)
        try check(started, doing: "start uploading \(key)")
        guard let uploadID = ListingParser.value(of: "UploadId", in: started.body) else {
            throw StoreFailure("\(location.shownEndpoint) started an upload of \(key) without an UploadId")
        }
        let upload = S3Location.encode(uploadID, keepingSlash: false)
        var parts: [(number: Int, etag: String)] = []
        do throws(StoreFailure) {
            var offset = 0
            while offset < body.count {
                let number = parts.count + 1
                let slice = body.subdata(in: offset..<min(offset + Self.partSize, body.count))
                let answer = try send("PUT", key: key, query: "partNumber=\(number)&uploadId=\(upload)", body: slice, session: session)
                try check(answer, doing: "upload part \(number) of \(key)")
                parts.append((number, answer.etag))
                offset += slice.count
            }
            let list = parts.map { "<Part><PartNumber>\($0.number)</PartNumber><ETag>\"\($0.etag)\"</ETag></Part>" }.joined()
            let done = try send("POST", key: key, query: "uploadId=\(upload)",
                                headers: ["Content-Type: application/xml"],
                                body: Data("<CompleteMultipartUpload>\(list)</CompleteMultipartUpload>".utf8), session: session)
            try check(done, doing: "finish uploading \(key)")
            // A store can answer 200 and still report an error in the body.
            if ListingParser.value(of: "Code", in: done.body) != nil {
                throw StoreFailure("\(location.shownEndpoint) could not finish uploading \(key): \(Self.reason(done.body))")
            }
            return ListingParser.value(of: "ETag", in: done.body)?.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? ""
        } catch {
            // The abort only tidies: the upload's own error is the one thrown.
            _ = try? send("DELETE", key: key, query: "uploadId=\(upload)", session: session)
            throw error
        }
    }

    // MARK: Sending

    private func send(_ method: String, key: String, query: String = "", headers: [String] = [], body: Data? = nil,
                      session: Curl.Session) throws(StoreFailure) -> Curl.Answer {
        let payload = body ?? Data()
        var lines = headers
        if !lines.contains(where: { $0.hasPrefix("x-amz-content-sha256") }) {
            lines.append("x-amz-content-sha256: " + SHA256Hex.of(payload))
        }
        if let token = credentials.sessionToken { lines.append("x-amz-security-token: \(token)") }
        let url = key.isEmpty ? location.endpoint + "/" + location.bucket + "?" + query : location.url(of: key, query: query)
        var pause = 0.25
        for attempt in 1...5 {
            var seconds = requestSeconds
            if let deadline {
                let left = Int(deadline.timeIntervalSinceNow.rounded(.up))
                guard left > 0 else {
                    throw StoreFailure("the time allowed (--timeout) ran out before \(method) \(key.isEmpty ? location.description : key) at \(location.shownEndpoint)")
                }
                seconds = min(seconds, left)
            }
            let result = session.send(method, url: url, region: location.region, keyID: credentials.keyID,
                                      secret: credentials.secret, headers: lines, body: body,
                                      maxAnswerBytes: 64 << 20, totalSeconds: seconds)
            switch result {
            case .success(let answer) where answer.status < 500 && answer.status != 429:
                return answer
            case .success(let answer) where attempt == 5:
                return answer
            case .failure(let failure) where attempt == 5:
                throw StoreFailure("cannot reach \(location.shownEndpoint): \(failure.message)")
            default:
                Thread.sleep(forTimeInterval: pause * Double.random(in: 0.75...1.25))
                pause *= 2
            }
        }
        throw StoreFailure("cannot reach \(location.shownEndpoint)")
    }

    private func check(_ answer: Curl.Answer, doing what: String) throws(StoreFailure) {
        guard !(200..<300).contains(answer.status) else { return }
        let code = ListingParser.value(of: "Code", in: answer.body) ?? ""
        switch (answer.status, code) {
        case (_, "NoSuchBucket"):
            throw StoreFailure("\(location.shownEndpoint) has no bucket \(location.bucket)")
        case (403, "InvalidAccessKeyId"), (403, "SignatureDoesNotMatch"), (403, "ExpiredToken"), (403, "InvalidToken"):
            throw StoreFailure("\(location.shownEndpoint) refused the credentials (\(Self.reason(answer.body)))")
        default:
            throw StoreFailure("\(location.shownEndpoint) could not \(what): HTTP \(answer.status)\(code.isEmpty ? "" : ", " + Self.reason(answer.body))")
        }
    }

    /// "Code: Message" from an S3 error document.
    private static func reason(_ body: Data) -> String {
        let code = ListingParser.value(of: "Code", in: body) ?? "error"
        let message = ListingParser.value(of: "Message", in: body)
        return message.map { "\(code): \($0)" } ?? code
    }
}

/// Reads the XML a store answers with: listings, upload ids and error documents.
package final class ListingParser: NSObject, XMLParserDelegate {
    private var objects: [S3Store.Listed] = []
    private var next: String?
    private var truncated = false
    private var text = ""
    private var key = "", size = 0, etag = "", modified = ""
    private var wanted: String?
    private var found: String?

    package static func parse(_ data: Data) -> (objects: [S3Store.Listed], next: String?) {
        let reader = ListingParser()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        // A listing cut short yields the objects read before the damage; the delegate has them.
        _ = parser.parse()
        return (reader.objects, reader.truncated ? reader.next : nil)
    }

    /// The text of the first element called `name`.
    package static func value(of name: String, in data: Data) -> String? {
        let reader = ListingParser()
        reader.wanted = name
        let parser = XMLParser(data: data)
        parser.delegate = reader
        _ = parser.parse()
        return reader.found
    }

    package func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    package func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if let wanted, name == wanted, found == nil {
            found = text
            parser.abortParsing()
            return
        }
        switch name {
        case "Key": key = text
        case "Size": size = Int(text) ?? -1
        case "ETag": etag = text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        case "LastModified": modified = text
        case "Contents":
            objects.append(S3Store.Listed(key: key, size: size, etag: etag, modified: modified))
            modified = ""
        case "NextContinuationToken": next = text
        case "IsTruncated": truncated = text == "true"
        default: break
        }
    }
}
