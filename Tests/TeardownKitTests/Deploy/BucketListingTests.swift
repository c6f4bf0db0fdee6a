import Foundation
import Testing
@testable import TeardownBase
@testable import TeardownInbox

/// A store whose listing never ends must not keep sync, intake or deploy asking for ever.
@Suite("Bucket listings")
struct BucketListingTests {
    @Test("A listing that hands back the same token, or the same page under new tokens, ends with an error", arguments: [
        (LocalServer.Kind.endless, "the store gave a continuation token again"),
        (LocalServer.Kind.repeating, "a page starts at inbox/a.json, not after inbox/a.json"),
    ])
    func endlessListing(_ kind: LocalServer.Kind, _ reason: String) throws {
        let server = try LocalServer(kind, serving: Fixtures.temporaryFolder())
        defer { server.stop() }
        let location = try S3Location.parse("s3://bucket/inbox", endpoint: "http://\(server.url)", region: "us-east-1").get()
        let store = S3Store(location: location, credentials: S3Credentials(keyID: "key", secret: "secret", sessionToken: nil))
        let session = try #require(Curl.Session())
        #expect {
            _ = try store.list(prefix: "inbox/", session: session)
        } throws: { error in
            "\(error)".contains(reason) && "\(error)".contains("does not end")
        }
        // The second page gives it away.
        #expect(server.requests.split(separator: "\n").count <= 2, "\(server.requests)")
    }
}

@Suite("Bucket deadlines")
struct BucketDeadlineTests {
    @Test("A bucket inbox whose store drips its answers stops at the sync's --timeout, retries included")
    func dripStopsAtTheDeadline() throws {
        let server = try LocalServer(.drip, serving: Fixtures.temporaryFolder())
        defer { server.stop() }
        let location = try S3Location.parse("s3://bucket/inbox", endpoint: "http://\(server.url)", region: "us-east-1").get()
        let inbox = BucketInbox(location: location, credentials: S3Credentials(keyID: "key", secret: "secret", sessionToken: nil),
                                cacheFolder: Fixtures.temporaryFolder(), deadline: Date(timeIntervalSinceNow: 2))
        let started = Date()
        #expect {
            _ = try inbox.submissions()
        } throws: { error in
            "\(error)".contains("the time allowed (--timeout) ran out")
        }
        // Five tries of 300 s each would be 25 minutes.
        #expect(Date().timeIntervalSince(started) < 60)
    }
}

@Suite("Endpoints in messages")
struct EndpointRedactionTests {
    @Test("An endpoint holding user:pass@ is never shown with them")
    func redacted() throws {
        let location = try S3Location.parse("s3://site", endpoint: "http://alice:hunter2@127.0.0.1:9/", region: "us-east-1").get()
        #expect(location.shownEndpoint == "http://…@127.0.0.1:9")
        #expect(S3Location.redacted("https://s3.example.org/path@x") == "https://s3.example.org/path@x")
        guard case .failure(let failure) = S3Location.parse("s3://site", endpoint: "ftp://alice:hunter2@host", region: "us-east-1") else {
            Issue.record("an ftp endpoint was taken")
            return
        }
        #expect(!failure.description.contains("hunter2"), "\(failure)")
        // A store that cannot be reached is named without them too.
        let store = S3Store(location: location, credentials: S3Credentials(keyID: "k", secret: "s", sessionToken: nil))
        let session = try #require(Curl.Session())
        #expect {
            _ = try store.get("x", session: session)
        } throws: { error in
            !"\(error)".contains("hunter2") && "\(error)".contains("127.0.0.1:9")
        }
    }
}
