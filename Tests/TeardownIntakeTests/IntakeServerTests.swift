import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import Testing
@testable import TeardownIntake
import TeardownBase
import TeardownInbox

/// The intake service over real HTTP: the API, the form posts, the trap, the rate limit, the
/// size limit and the token that guards the inbox.
@Suite struct IntakeServerTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TeardownKitTests/Fixtures/sites").path
    static let token = "test-token"

    struct Service {
        let server: IntakeServer
        let inbox: IntakeInbox
    }

    private func service(perMinute: Int = 100, settings extra: String = "", behindProxy: Bool = false, siteURL: String = "https://example.org/catalog/") throws -> Service {
        let work = NSTemporaryDirectory() + "teardown-intake-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/minimal", toPath: work + "/site")
        if !extra.isEmpty {
            let path = work + "/site/content/site.yaml"
            try (String(contentsOfFile: path, encoding: .utf8) + extra).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let inbox = try IntakeInbox(folder: work + "/inbox")
        let desk = try IntakeDesk(siteRoot: work + "/site", inbox: inbox)
        var settings = IntakeServer.Settings(token: Self.token, siteURL: siteURL)
        settings.port = 0
        settings.perMinute = perMinute
        settings.behindProxy = behindProxy
        return Service(server: IntakeServer(desk: desk, settings: settings), inbox: inbox)
    }

    private func json(_ response: TestResponse) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]) ?? [:]
    }

    @Test func apiCommentIsStoredAndTheInboxNeedsTheToken() async throws {
        let service = try service()
        try await service.server.application().test(.live) { client in
            let body = ByteBuffer(string: #"{"machine": "box", "part": "lid", "author": "Ada", "body": "Stiff hinge."}"#)
            let id = try await client.execute(uri: "/api/v1/comments", method: .post, headers: [.contentType: "application/json"],
                                              body: body) { response in
                #expect(response.status == .created)
                #expect(json(response)["status"] == "received")
                return json(response)["id"] ?? ""
            }
            try await client.execute(uri: "/inbox/manifest.json", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/inbox/manifest.json", method: .get, headers: [.authorization: "Bearer wrong-token"]) {
                #expect($0.status == .unauthorized)
            }
            let bearer: HTTPFields = [.authorization: "Bearer \(Self.token)"]
            try await client.execute(uri: "/inbox/manifest.json", method: .get, headers: bearer) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"\(id).comment.md\""))
            }
            try await client.execute(uri: "/inbox/\(id).comment.md", method: .get, headers: bearer) { response in
                #expect(String(buffer: response.body).contains("Stiff hinge."))
            }
            for hidden in [".token", ".lock", "..%2Fsite%2Fcontent%2Fsite.yaml"] {
                try await client.execute(uri: "/inbox/\(hidden)", method: .get, headers: bearer) { #expect($0.status == .notFound, "\(hidden)") }
            }
            try await client.execute(uri: "/api/v1/comments", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"machine": "box", "author": "Ada", "body": ""}"#)) { response in
                #expect(response.status == .unprocessableContent)
                #expect(json(response)["error"] == "comment is 0 characters long; the limit is 1-200")
            }
        }
        #expect(try service.inbox.submissions().count == 1)
    }

    /// `sync --follow` asks for the manifest once it differs from the one it has: the answer
    /// comes when a submission is published, holding it, not at the end of the wait.
    @Test func aWaitForTheManifestIsAnsweredWithTheNextSubmission() async throws {
        let service = try service()
        try await service.server.application().test(.live) { client in
            let bearer: HTTPFields = [.authorization: "Bearer \(Self.token)"]
            let before = try await client.execute(uri: "/inbox/manifest.json", method: .get, headers: bearer) {
                SHA256Hex.of(Data(buffer: $0.body))
            }
            // Nothing new: answered with the same manifest once the wait is over.
            try await client.execute(uri: "/inbox/manifest.json?since=\(before)&wait=1", method: .get, headers: bearer) { response in
                #expect(response.status == .ok)
                #expect(SHA256Hex.of(Data(buffer: response.body)) == before)
            }
            async let waited = client.execute(uri: "/inbox/manifest.json?since=\(before)&wait=20", method: .get, headers: bearer) {
                String(buffer: $0.body)
            }
            // Published while the wait above is held (a server that did not hold it answered before
            // this), by the desk itself: the test client sends one request at a time.
            try await Task.sleep(for: .milliseconds(300))
            _ = await service.server.desk.submit(CommentForm(machine: "box", part: "lid", author: "Ada", body: "Seen at once."))
            #expect(try service.inbox.submissions().count == 1)
            #expect(try await waited.contains(".comment.md"), "the answer lists the new submission")
        }
    }

    @Test func aDamagedManifestIsAnErrorNotAnEmptyInbox() async throws {
        let service = try service()
        try await service.server.application().test(.live) { client in
            let body = ByteBuffer(string: #"{"machine": "box", "author": "Ada", "body": "Kept."}"#)
            let id = try await client.execute(uri: "/api/v1/comments", method: .post, headers: [.contentType: "application/json"],
                                              body: body) { json($0)["id"] ?? "" }
            // Damaged on disk: before, every file of the inbox became a 404, as if it were empty.
            try Data("{\"version\": 1, \"submissions\": [".utf8).write(to: URL(fileURLWithPath: service.inbox.folder + "/manifest.json"))
            try await client.execute(uri: "/inbox/\(id).comment.md", method: .get, headers: [.authorization: "Bearer \(Self.token)"]) {
                #expect($0.status == .internalServerError)
            }
        }
    }

    @Test func formPostRedirectsToThanksAndTheTrapKeepsNothing() async throws {
        let service = try service()
        try await service.server.application().test(.live) { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let back = "https%3A%2F%2Fexample.org%2Fcatalog%2Fmachines%2Fbox%2F"
            try await client.execute(uri: "/forms/comment", method: .post, headers: form,
                                     body: ByteBuffer(string: "machine=box&author=Ada&body=Nice+box%21&website=&back=\(back)")) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "../thanks?held=0&back=\(back)")
            }
            try await client.execute(uri: "/thanks?held=0&back=\(back)", method: .get) { response in
                #expect(String(buffer: response.body).contains("href=\"https://example.org/catalog/machines/box/\""))
            }
            // A link back off the site is replaced by the site's home.
            try await client.execute(uri: "/thanks?back=https%3A%2F%2Fevil.example%2F", method: .get) { response in
                #expect(!String(buffer: response.body).contains("evil.example"))
            }
            try await client.execute(uri: "/forms/comment", method: .post, headers: form,
                                     body: ByteBuffer(string: "machine=box&author=Bot&body=Buy+now&website=http%3A%2F%2Fspam")) { response in
                #expect(response.status == .seeOther, "a robot sees what a person sees")
            }
            // A filled trap followed by an empty copy of it does not pass: URL-encoded, a field sent
            // twice is refused; in multipart, the filled trap stays filled.
            try await client.execute(uri: "/forms/comment", method: .post, headers: form,
                                     body: ByteBuffer(string: "machine=box&author=Bot&body=Buy+again&website=spam&website=")) { response in
                #expect(response.status == .badRequest)
            }
            let parts = "--b\r\nContent-Disposition: form-data; name=\"website\"\r\n\r\nspam\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"website\"\r\n\r\n\r\n"
                + ["machine": "box", "author": "Bot", "body": "Buy thrice"].map {
                    "--b\r\nContent-Disposition: form-data; name=\"\($0.key)\"\r\n\r\n\($0.value)\r\n"
                }.joined() + "--b--\r\n"
            try await client.execute(uri: "/forms/comment", method: .post, headers: [.contentType: "multipart/form-data; boundary=b"],
                                     body: ByteBuffer(string: parts)) { response in
                #expect(response.status == .seeOther)
            }
        }
        let stored = try service.inbox.submissions()
        #expect(stored.count == 1)
    }

    @Test func theRateLimitAnswers429WithRetryAfter() async throws {
        let service = try service(perMinute: 3)
        try await service.server.application().test(.live) { client in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<5 {
                try await client.execute(uri: "/api/v1/comments", method: .post, headers: [.contentType: "application/json"],
                                         body: ByteBuffer(string: #"{"machine": "box", "author": "Ada", "body": "Post \#(index)"}"#)) { response in
                    statuses.append(response.status)
                    if response.status == .tooManyRequests { #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1) }
                }
            }
            #expect(statuses == [.created, .created, .created, .tooManyRequests, .tooManyRequests])
        }
        #expect(try service.inbox.submissions().count == 3)
    }

    /// Field names, parts and headers count against the form's cap; invented fields are dropped
    /// and never echoed back.
    @Test func fieldNamesAndPartsCountAgainstTheFormCap() async throws {
        let service = try service()
        @Sendable func multipart(_ parts: [(name: String, value: String)]) -> ByteBuffer {
            var text = ""
            for part in parts {
                text += "--b\r\nContent-Disposition: form-data; name=\"\(part.name)\"\r\n\r\n\(part.value)\r\n"
            }
            return ByteBuffer(string: text + "--b--\r\n")
        }
        let comment = [("machine", "box"), ("part", "lid"), ("author", "Ada"), ("body", "Fine.")]
        try await service.server.application().test(.live) { client in
            let type: HTTPFields = [.contentType: "multipart/form-data; boundary=b"]
            // 2,000 unique names of 100 bytes each, every value empty: 200 KB of names.
            let names = (0..<2000).map { (String(repeating: "n", count: 96) + String(format: "%04d", $0), "") }
            try await client.execute(uri: "/forms/comment", method: .post, headers: type, body: multipart(comment + names)) { response in
                #expect(response.status == .contentTooLarge)
            }
            // Many empty fields with short names.
            let empty = (0..<5000).map { ("f\($0)", "") }
            try await client.execute(uri: "/api/v1/comments", method: .post, headers: type, body: multipart(comment + empty)) { response in
                #expect(response.status == .contentTooLarge)
            }
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            try await client.execute(uri: "/forms/comment", method: .post, headers: form,
                                     body: ByteBuffer(string: "machine=box&author=Ada&body=Hi" + String(repeating: "&a", count: 5000))) { response in
                #expect(response.status == .contentTooLarge)
            }
            // A refused post with an invented field: the page does not carry it back.
            let invented = [("machine", "nowhere"), ("author", "Ada"), ("body", "Fine."), ("invented", String(repeating: "x", count: 1000))]
            try await client.execute(uri: "/forms/comment", method: .post, headers: type, body: multipart(invented)) { response in
                #expect(response.status == .unprocessableContent || response.status == .badRequest || response.status == .notFound)
                let page = String(buffer: response.body)
                #expect(page.contains("Post again") && !page.contains("invented") && !page.contains("xxxxxxxx"), "\(page.prefix(300))")
            }
        }
        #expect(try service.inbox.submissions().isEmpty)
    }

    /// The link back is compared as a URL: a site URL without its trailing slash is not a
    /// prefix that another host can hide behind.
    @Test func theLinkBackStaysOnTheSite() async throws {
        let service = try service(siteURL: "http://127.0.0.1:8080")
        try await service.server.application().test(.live) { client in
            for hostile in ["http://127.0.0.1:8080@evil.example/", "http://127.0.0.1:80801/", "http://127.0.0.1:8080.evil.example/",
                            "https://127.0.0.1:8080/", "http://127.0.0.1:8080/../../x"] {
                let back = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                try await client.execute(uri: "/thanks?back=\(back)", method: .get) { response in
                    let page = String(buffer: response.body)
                    #expect(!page.contains("evil.example") && !page.contains("80801") && !page.contains("https://127")
                            && !page.contains("../x"), "\(hostile)")
                    #expect(page.contains("href=\"http://127.0.0.1:8080\""), "\(hostile) falls back to the site")
                }
            }
            let good = "http://127.0.0.1:8080/machines/box/".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await client.execute(uri: "/thanks?back=\(good)", method: .get) { response in
                #expect(String(buffer: response.body).contains("href=\"http://127.0.0.1:8080/machines/box/\""))
            }
        }
    }

    @Test func anInboxThatCannotBeWrittenAnswers503() async throws {
        let service = try service()
        // A file where the upload folder should be: no submission can be started.
        try FileManager.default.removeItem(atPath: service.inbox.incoming)
        try Data().write(to: URL(fileURLWithPath: service.inbox.incoming))
        try await service.server.application().test(.live) { client in
            try await client.execute(uri: "/api/v1/comments", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"machine": "box", "author": "Ada", "body": "Hi"}"#)) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(json(response)["error"] == IntakeDesk.unstored)
            }
        }
    }

    @Test func behindAProxyEachForwardedAddressHasItsOwnAllowance() async throws {
        let service = try service(perMinute: 1, behindProxy: true)
        try await service.server.application().test(.live) { client in
            var statuses: [HTTPResponse.Status] = []
            for visitor in ["203.0.113.5", "203.0.113.6", "203.0.113.5"] {
                let headers: HTTPFields = [.contentType: "application/json",
                                           HTTPField.Name("X-Forwarded-For")!: "10.9.9.9, \(visitor)"]
                try await client.execute(uri: "/api/v1/comments", method: .post, headers: headers,
                                         body: ByteBuffer(string: #"{"machine": "box", "author": "Ada", "body": "Hi"}"#)) {
                    statuses.append($0.status)
                }
            }
            #expect(statuses == [.created, .created, .tooManyRequests])
        }
    }

    @Test func aPhotoOverTheLimitIsRefusedWhileStreamingAndLeavesNothing() async throws {
        let service = try service(settings: "limits:\n  photo_max_bytes: 100000\n")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/photos/content/machines/camera/parts/body/photos/workbench.jpg"))
        try await service.server.application().test(.live) { client in
            try await client.execute(uri: "/api/v1/photos?machine=box&author=Ada", method: .post, headers: [.contentType: "image/jpeg"],
                                     body: ByteBuffer(bytes: jpeg + Data(count: 200_000))) { response in
                #expect(response.status == .contentTooLarge)
                #expect(json(response)["error"] == "the photo is larger than the limit of 100000 bytes")
            }
            let boundary = "XyZ"
            var form = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"machine\"\r\n\r\nbox\r\n".utf8)
            form += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"author\"\r\n\r\nAda\r\n".utf8)
            form += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"w.jpg\"\r\n\r\n".utf8) + jpeg
            form += Data("\r\n--\(boundary)--\r\n".utf8)
            try await client.execute(uri: "/forms/photo", method: .post,
                                     headers: [.contentType: "multipart/form-data; boundary=\(boundary)", .accept: "application/json"],
                                     body: ByteBuffer(bytes: form)) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
            }
        }
        #expect(try service.inbox.submissions().count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: service.inbox.incoming).isEmpty)
    }

    @Test func theOpenAPIDocumentDescribesEveryRoute() async throws {
        let service = try service()
        try await service.server.application().test(.live) { client in
            try await client.execute(uri: "/api/v1/openapi.json", method: .get) { response in
                let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let paths = try #require(document["paths"] as? [String: Any])
                #expect(Set(paths.keys) == ["/api/v1/comments", "/api/v1/photos", "/inbox/{file}", "/health"])
            }
        }
    }
}
