import Foundation
import Hummingbird
import TeardownInbox

/// Reads the fields of a submission from a request body: JSON, URL-encoded or multipart form
/// data. A photo streams to its upload file as it arrives, with its size checked on the way.
enum FormBody {
    /// At most this many bytes of text fields in a photo post.
    static let maxFieldBytes = 64 << 10
    /// The fields the forms and the API send; others are counted against the caps and dropped,
    /// so a refusal page never echoes a sender's invented fields back.
    static let knownFields: Set<String> = ["machine", "part", "author", "body", "caption", "share_location", "back", "website"]
    /// At most this many fields or parts in one post: the forms have a handful.
    static let maxFields = 32
    /// What each field costs besides its value: its name and, in multipart, its headers. Without
    /// it, 200,000 empty fields, or megabytes of field names, passed the text cap.
    static let fieldOverhead = 64

    private static func tooMany() -> FormProblem { FormProblem(.contentTooLarge, "the form has more than \(maxFields) fields") }

    /// The fields of a post that carries no file.
    static func fields(of request: Request, maxBytes: Int) async throws -> [String: String] {
        let type = request.headers[.contentType] ?? ""
        if let boundary = MultipartReader.boundary(contentType: type) {
            return try await multipart(request, boundary: boundary, upload: nil, file: "", maxFileBytes: 0, maxFieldBytes: maxBytes)
        }
        let body = try await collect(request, maxBytes: maxBytes)
        switch mediaType(type) {
        case "application/json":
            return try decode { try JSONDecoder().decode(SubmissionFields.self, from: body) }
        case "application/x-www-form-urlencoded", "":
            guard body.reduce(0, { $0 + ($1 == UInt8(ascii: "&") ? 1 : 0) }) < maxFields else { throw tooMany() }
            return try decode { try URLEncodedFormDecoder().decode(SubmissionFields.self, from: String(decoding: body, as: UTF8.self)) }
        default:
            throw FormProblem(.unsupportedMediaType, "send the form as JSON, URL-encoded or multipart form data")
        }
    }

    /// The fields of a photo post, with the image written to `file` in `upload`: a multipart
    /// form with a `photo` file, or, for the API, the image as the body and the fields in the query.
    static func receive(_ request: Request, into upload: IntakeUpload, file: String, api: Bool,
                        maxFileBytes: Int) async throws -> [String: String] {
        let type = request.headers[.contentType] ?? ""
        if let boundary = MultipartReader.boundary(contentType: type) {
            let fields = try await multipart(request, boundary: boundary, upload: upload, file: file,
                                             maxFileBytes: maxFileBytes, maxFieldBytes: maxFieldBytes)
            guard FileManager.default.fileExists(atPath: upload.path(of: file)) else {
                throw FormProblem(.badRequest, "no photo was sent")
            }
            return fields
        }
        guard api else { throw FormProblem(.unsupportedMediaType, "send the photo form as multipart form data") }
        let sink = try upload.open(file)
        try await eachChunk(of: request) { chunk in
            guard sink.size + chunk.readableBytes <= maxFileBytes else { throw tooLarge(maxFileBytes) }
            try chunk.withUnsafeReadableBytes { try sink.append($0) }
        }
        try sink.finish()
        return request.uri.queryParameters.reduce(into: [:]) { $0[String($1.key)] = String($1.value) }
    }

    private static func multipart(_ request: Request, boundary: String, upload: IntakeUpload?, file: String,
                                  maxFileBytes: Int, maxFieldBytes: Int) async throws -> [String: String] {
        var reader = MultipartReader(boundary: boundary)
        var fields: [String: String] = [:]
        var fieldBytes = 0
        var parts = 0
        var field: (name: String, bytes: [UInt8])?
        var sink: UploadFile?
        // The whole body too: the file, the text, and what framing they can need.
        let maxBodyBytes = (upload == nil ? 0 : maxFileBytes) + maxFieldBytes + maxFields * 1024
        var bodyBytes = 0
        try await eachChunk(of: request) { chunk in
            bodyBytes += chunk.readableBytes
            guard bodyBytes <= maxBodyBytes else { throw FormProblem(.contentTooLarge, "the form is larger than \(maxBodyBytes) bytes") }
            for event in try reader.feed(chunk.readableBytesView) {
                switch event {
                case .part(let part):
                    parts += 1
                    fieldBytes += fieldOverhead + (part.name?.utf8.count ?? 0) + (part.filename?.utf8.count ?? 0)
                    guard parts <= maxFields else { throw tooMany() }
                    guard fieldBytes <= maxFieldBytes else { throw FormProblem(.contentTooLarge, "the form's text is too long") }
                    if part.filename != nil, part.name == "photo", let upload, sink == nil,
                       !FileManager.default.fileExists(atPath: upload.path(of: file)) {
                        sink = try upload.open(file)
                    } else if part.filename != nil, !(part.filename ?? "").isEmpty {
                        throw FormProblem(.badRequest, "only one file, in the 'photo' field, can be sent")
                    } else {
                        field = (part.name ?? "", [])
                    }
                case .data(let bytes):
                    if let file = sink {
                        guard file.size + bytes.count <= maxFileBytes else { throw tooLarge(maxFileBytes) }
                        try bytes.withUnsafeBytes { try file.append($0) }
                    } else if field != nil {
                        fieldBytes += bytes.count
                        guard fieldBytes <= maxFieldBytes else { throw FormProblem(.contentTooLarge, "the form's text is too long") }
                        field!.bytes += bytes
                    }
                case .partEnd:
                    if let file = sink {
                        try file.finish()
                        sink = nil
                    } else if let done = field {
                        if knownFields.contains(done.name) { set(&fields, done.name, String(decoding: done.bytes, as: UTF8.self)) }
                        field = nil
                    }
                }
            }
        }
        try reader.finish()
        return fields
    }

    private static func collect(_ request: Request, maxBytes: Int) async throws -> Data {
        var body = Data()
        try await eachChunk(of: request) { chunk in
            guard body.count + chunk.readableBytes <= maxBytes else {
                throw FormProblem(.contentTooLarge, "the form is larger than \(maxBytes) bytes")
            }
            body.append(contentsOf: chunk.readableBytesView)
        }
        return body
    }

    /// The fields of a JSON or URL-encoded body, with the decoders' own complaints turned into a 400.
    /// A field sent twice is refused by the URL-encoded decoder, which also settles the trap
    /// field sent empty after a filled copy.
    private static func decode(_ read: () throws -> SubmissionFields) throws -> [String: String] {
        do {
            return try read().values
        } catch let problem as FormProblem {
            throw problem
        } catch let error as URLEncodedFormError {
            throw FormProblem(.badRequest, "the form cannot be read: \(error.description)")
        } catch {
            throw FormProblem(.badRequest, "the body is not a JSON object")
        }
    }

    /// The name of the hidden field a person leaves empty and a robot fills in.
    static let trap = "website"

    /// Sets a field, the last value winning, except that a filled-in trap field stays filled:
    /// an empty copy after it must not clear it.
    static func set(_ fields: inout [String: String], _ name: String, _ value: String) {
        if name == trap, !(fields[name] ?? "").isEmpty { return }
        fields[name] = value
    }

    private static func mediaType(_ contentType: String) -> String {
        contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    private static func tooLarge(_ limit: Int) -> FormProblem {
        FormProblem(.contentTooLarge, "the photo is larger than the limit of \(limit) bytes")
    }
}

extension MultipartReader.Failure {
    var problem: FormProblem { FormProblem(.badRequest, "the form data cannot be read: \(description)") }
}

/// The known fields of a JSON or URL-encoded submission; others are counted and dropped.
struct SubmissionFields: Decodable {
    let values: [String: String]

    private struct Name: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Name.self)
        guard container.allKeys.count <= FormBody.maxFields else {
            throw FormProblem(.contentTooLarge, "the form has more than \(FormBody.maxFields) fields")
        }
        var values: [String: String] = [:]
        for key in container.allKeys where FormBody.knownFields.contains(key.stringValue) {
            // A field is a string or a flag; one that is neither is left out, and the form's check names it.
            if let text = try? container.decode(String.self, forKey: key) {
                values[key.stringValue] = text
            } else if let flag = try? container.decode(Bool.self, forKey: key) {
                values[key.stringValue] = flag ? "true" : "false"
            } else if try container.decodeNil(forKey: key) {
                continue
            } else {
                throw FormProblem(.badRequest, "'\(key.stringValue)' must be a string")
            }
        }
        self.values = values
    }
}

/// Why a request was refused, with the status to answer.
struct FormProblem: Error {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }
}

extension FormBody {
    /// How much of a body over its limit is still read, and dropped, before the 413 is sent.
    static let drainBytes = 32 << 20

    /// Hands each chunk of the body to `take`. When `take` refuses the body as too large, the
    /// rest of it is read and dropped, up to `drainBytes`, before the refusal goes out: a
    /// client that sends its whole body before it reads the answer (Python's urllib, curl
    /// without Expect) was otherwise left blocked in sending until its own timeout, never
    /// seeing the 413.
    static func eachChunk(of request: Request, _ take: (ByteBuffer) throws -> Void) async throws {
        var chunks = request.body.makeAsyncIterator()
        while let chunk = try await chunks.next() {
            do {
                try take(chunk)
            } catch let problem as FormProblem where problem.status == .contentTooLarge {
                var left = drainBytes
                // Draining an oversized body only keeps the connection usable; the answer is already decided.
                while left > 0, let rest = try? await chunks.next() { left -= rest.readableBytes }
                throw problem
            }
        }
    }

    /// Runs `read`, or throws 408 once it has taken `seconds`: a sender dripping its body a byte
    /// at a time must not hold a connection, and a worker, for ever. Nothing is stored from a
    /// body that did not arrive whole, so a client that retries makes no duplicate.
    static func within<Value: Sendable>(_ seconds: Int, _ read: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await read() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw FormProblem(.requestTimeout, "the request's body did not arrive within \(seconds) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}
