import CTeardownFetch
import Foundation

/// Transfers through libcurl: downloads from remote inboxes, and signed requests to
/// S3-compatible stores. This is the one Swift file that calls into CTeardownFetch.
package enum Curl {
    /// Downloads `url` into the file at `path`; the message is libcurl's on failure.
    package static func fetch(_ url: String, to path: String, maxBytes: Int, stallSeconds: Int, totalSeconds: Int,
                      token: String?) -> Result<Void, CurlFailure> {
        var message = [CChar](repeating: 0, count: 512)
        let status = td_fetch(url, path, Int64(maxBytes), stallSeconds, totalSeconds, token, &message, message.count)
        guard status == 0 else { return .failure(CurlFailure(message: text(message), receiving: status == -2)) }
        return .success(())
    }

    /// What a signed request got back.
    package struct Answer: Sendable {
        package let status: Int
        package let body: Data
        package let etag: String
    }

    /// One connection to a store, kept between requests; one per thread.
    package final class Session {
        private let handle: OpaquePointer

        package init?() {
            guard let handle = td_s3_open() else { return nil }
            self.handle = handle
        }

        deinit { td_s3_close(handle) }

        /// Sends a request signed with SigV4 for `region`; a failure is one of libcurl's
        /// (no connection, a timeout), never an HTTP status.
        package func send(_ method: String, url: String, region: String, keyID: String, secret: String,
                  headers: [String], body: Data?, maxAnswerBytes: Int, totalSeconds: Int) -> Result<Answer, CurlFailure> {
            var lines = headers.map { strdup($0) }
            defer { lines.forEach { free($0) } }
            lines.append(nil)
            var response = td_s3_response()
            var message = [CChar](repeating: 0, count: 512)
            let result = lines.withUnsafeBufferPointer { list in
                list.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: list.count) { pointers in
                    (body ?? Data()).withUnsafeBytes { raw in
                        td_s3_request(handle, method, url, region, keyID, secret, pointers,
                                      raw.baseAddress, raw.count, maxAnswerBytes, totalSeconds,
                                      &response, &message, message.count)
                    }
                }
            }
            guard result == 0 else { return .failure(CurlFailure(message: Curl.text(message))) }
            defer { td_s3_response_free(&response) }
            let answer = response.body.map { Data(bytes: $0, count: response.body_size) } ?? Data()
            let etag = withUnsafeBytes(of: response.etag) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .success(Answer(status: response.status, body: answer, etag: etag))
        }
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

package struct CurlFailure: Error {
    package let message: String
    /// The download could not be written here: the receiving side failed, not the server.
    package var receiving = false
}
