import Foundation
import Testing
@testable import TeardownInbox

/// The multipart reader gives the same fields and file bytes however the body is cut into chunks.
@Suite struct MultipartReaderTests {
    static let boundary = "----form7MA4YWxk"
    /// File bytes that hold a line break and a prefix of the delimiter, which must not end the part.
    static let file: [UInt8] = Array("PNG\r\n------form7MA4YW\r\n--\r\n".utf8) + (0..<300).map { UInt8($0 % 256) }

    static var body: [UInt8] {
        var text = Array("preamble to ignore\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"author\"\r\n\r\nAda\r\n".utf8)
        text += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a \\\"b\\\".png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
        text += file
        text += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"body\"\r\n\r\nline one\r\nline two\r\n--\(boundary)--\r\nepilogue".utf8)
        return text
    }

    private func read(chunk size: Int) throws -> (fields: [String: String], file: [UInt8], filename: String?) {
        var reader = MultipartReader(boundary: Self.boundary)
        var fields: [String: String] = [:], file: [UInt8] = [], filename: String?
        var current: MultipartPart?
        var bytes: [UInt8] = []
        let body = Self.body
        for start in stride(from: 0, to: body.count, by: size) {
            for event in try reader.feed(body[start..<min(start + size, body.count)]) {
                switch event {
                case .part(let part): current = part; bytes = []
                case .data(let data): bytes += data
                case .partEnd:
                    if current?.filename != nil { file = bytes; filename = current?.filename } else { fields[current?.name ?? ""] = String(decoding: bytes, as: UTF8.self) }
                }
            }
        }
        try reader.finish()
        return (fields, file, filename)
    }

    @Test func everyChunkSizeGivesTheSameParts() throws {
        for size in Array(1...80) + [500, 4096, Self.body.count] {
            let result = try read(chunk: size)
            #expect(result.fields == ["author": "Ada", "body": "line one\r\nline two"], "chunks of \(size)")
            #expect(result.file == Self.file, "chunks of \(size)")
            #expect(result.filename == "a \"b\".png")
        }
    }

    @Test func aBodyCutShortIsAnError() throws {
        var reader = MultipartReader(boundary: Self.boundary)
        _ = try reader.feed(Self.body.prefix(200))
        #expect(throws: MultipartReader.Failure.self) { try reader.finish() }
    }

    @Test func boundaryComesFromTheContentType() {
        #expect(MultipartReader.boundary(contentType: "multipart/form-data; boundary=\"abc def\"") == "abc def")
        #expect(MultipartReader.boundary(contentType: "Multipart/Form-Data;boundary=x") == "x")
        #expect(MultipartReader.boundary(contentType: "application/json") == nil)
        #expect(MultipartReader.boundary(contentType: "multipart/form-data") == nil)
    }
}
