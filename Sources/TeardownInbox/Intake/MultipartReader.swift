import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a multipart/form-data body (RFC 7578) as it arrives, chunk by chunk, so a photo
/// streams to disk and never sits whole in memory. Only the last few bytes of a chunk, which
/// could be the start of a boundary, are held back until the next one.
public struct MultipartReader: Sendable {
    public enum Event: Equatable, Sendable {
        case part(MultipartPart)
        case data([UInt8])
        case partEnd
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The boundary parameter of a `multipart/form-data; boundary=...` content type.
    public static func boundary(contentType: String) -> String? {
        let fields = MultipartPart.parameters(contentType)
        guard fields.value.lowercased() == "multipart/form-data", let boundary = fields.parameters["boundary"],
              (1...70).contains(boundary.utf8.count)
        else { return nil }
        return boundary
    }

    private enum State { case preamble, afterDelimiter, headers, body, done }

    /// "\r\n--boundary": the body starts with a virtual line break, so the first boundary
    /// reads like every other.
    private let delimiter: [UInt8]
    private var buffer: [UInt8] = [0x0D, 0x0A]
    private var state = State.preamble
    private static let maxHeaderBytes = 16 * 1024

    public init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    public var isFinished: Bool { state == .done }

    public mutating func feed(_ bytes: some Collection<UInt8>) throws(Failure) -> [Event] {
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        var consumed = 0
        defer { buffer.removeFirst(consumed) }
        while true {
            switch state {
            case .preamble:
                guard let found = find(delimiter, from: consumed) else {
                    consumed = max(consumed, buffer.count - (delimiter.count - 1))
                    return events
                }
                consumed = found + delimiter.count
                state = .afterDelimiter
            case .afterDelimiter:
                guard try readBoundaryEnd(&consumed) else { return events }
            case .headers:
                guard let headers = try readHeaders(&consumed) else { return events }
                events.append(.part(MultipartPart(headerBlock: headers)))
                state = .body
            case .body:
                if let found = find(delimiter, from: consumed) {
                    if found > consumed { events.append(.data(Array(buffer[consumed..<found]))) }
                    events.append(.partEnd)
                    consumed = found + delimiter.count
                    state = .afterDelimiter
                } else {
                    let safe = buffer.count - (delimiter.count - 1)
                    if safe > consumed {
                        events.append(.data(Array(buffer[consumed..<safe])))
                        consumed = safe
                    }
                    return events
                }
            case .done:
                consumed = buffer.count
                return events
            }
        }
    }

    /// Reads the rest of a boundary's line: `--` ends the form, a line break starts a part's
    /// headers. False when more bytes are needed.
    private mutating func readBoundaryEnd(_ consumed: inout Int) throws(Failure) -> Bool {
        guard buffer.count - consumed >= 2 else { return false }
        if buffer[consumed] == 0x2D, buffer[consumed + 1] == 0x2D {
            state = .done
            consumed = buffer.count
            return true
        }
        // Transport padding may sit between the boundary and its line break.
        guard let lineEnd = find([0x0D, 0x0A], from: consumed) else {
            if buffer.count - consumed > 256 { throw Failure(description: "a boundary line is too long") }
            return false
        }
        consumed = lineEnd + 2
        state = .headers
        return true
    }

    /// A part's header block, up to the blank line that ends it; nil when more bytes are needed.
    private func readHeaders(_ consumed: inout Int) throws(Failure) -> String? {
        if buffer.count - consumed >= 2, buffer[consumed] == 0x0D, buffer[consumed + 1] == 0x0A {
            consumed += 2
            return ""
        }
        guard let end = find([0x0D, 0x0A, 0x0D, 0x0A], from: consumed) else {
            if buffer.count - consumed > Self.maxHeaderBytes { throw Failure(description: "a part's headers are too long") }
            return nil
        }
        let block = String(decoding: buffer[consumed..<end], as: UTF8.self)
        consumed = end + 4
        return block
    }

    /// Throws unless the closing boundary was read.
    public func finish() throws(Failure) {
        guard state == .done else { throw Failure(description: "the form data ends before its closing boundary") }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard buffer.count - start >= needle.count else { return nil }
        // memchr finds candidates for the first byte at memory speed; memcmp checks the rest.
        return buffer.withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { pattern -> Int? in
                let base = haystack.baseAddress!
                var at = start
                let last = haystack.count - pattern.count
                while at <= last {
                    guard let hit = memchr(base + at, Int32(pattern[0]), last - at + 1) else { return nil }
                    let offset = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + offset, pattern.baseAddress!, pattern.count) == 0 { return offset }
                    at = offset + 1
                }
                return nil
            }
        }
    }
}

/// One part's headers: its field name, and for a file its file name and type.
public struct MultipartPart: Equatable, Sendable {
    public var name: String?
    public var filename: String?
    public var contentType: String?

    package init(headerBlock: String) {
        for line in headerBlock.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "content-disposition":
                let parsed = Self.parameters(value)
                name = parsed.parameters["name"]
                filename = parsed.parameters["filename"]
            case "content-type":
                contentType = value
            default:
                break
            }
        }
    }

    /// `value; key=token; key="quoted \"string\""`, split into the value and its parameters.
    package static func parameters(_ header: String) -> (value: String, parameters: [String: String]) {
        var pieces: [String] = []
        var current = ""
        var quoted = false, escaped = false
        for character in header {
            if escaped { current.append(character); escaped = false; continue }
            if quoted, character == "\\" { escaped = true; continue }
            if character == "\"" { quoted.toggle(); continue }
            if character == ";", !quoted { pieces.append(current); current = ""; continue }
            current.append(character)
        }
        pieces.append(current)
        var parameters: [String: String] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            parameters[piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()] =
                String(piece[piece.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
        return (pieces[0].trimmingCharacters(in: .whitespaces), parameters)
    }
}
