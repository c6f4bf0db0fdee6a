import CTeardownImage
import Foundation
import TeardownBase

/// libvips, through the CTeardownImage shim. The only file that handles its pointers.
package enum Vips {
    package struct Failure: Error, Equatable {
        package let reason: String
        /// A system call failed (libvips says "unix error"): the file system's failure, such as
        /// a full disk, not the image's (an encoder's limit, such as WebP's largest side).
        package var system: Bool
        /// The device was full.
        package var noSpace: Bool

        package init(reason: String, system: Bool? = nil, noSpace: Bool? = nil) {
            self.reason = reason
            self.system = system ?? reason.contains("unix error")
            self.noSpace = noSpace ?? reason.contains(String(cString: strerror(ENOSPC)))
        }
    }

    /// What a photo's header says, read before anything is stripped. EXIF values are libvips'
    /// raw renderings; `PhotoMetadata` makes sense of them.
    package struct Header: Sendable, Equatable {
        package let width: Int
        package let height: Int
        package let orientation: Int
        package let make: String
        package let model: String
        package let taken: String
        package let latitude: String
        package let latitudeRef: String
        package let longitude: String
        package let longitudeRef: String
    }

    /// A decoded image in memory: upright, 8-bit sRGB.
    package final class Image: @unchecked Sendable {
        fileprivate let pointer: OpaquePointer

        fileprivate init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { td_close(pointer) }

        package var size: PixelSize { PixelSize(width: Int(td_width(pointer)), height: Int(td_height(pointer))) }
        package var hasAlpha: Bool { td_has_alpha(pointer) != 0 }

        package func scaled(to target: PixelSize) throws(Failure) -> Image {
            var result: OpaquePointer?
            try Vips.call { td_scaled(pointer, Int32(target.width), Int32(target.height), &result, $0, $1) }
            return Image(result!)
        }

        /// Writes the image without any of its metadata.
        package func save(to path: String, as format: ImageFormat, quality: Int, lossless: Bool = false) throws(Failure) {
            try Vips.call { td_save(pointer, path, format.code, Int32(quality), lossless ? 1 : 0, $0, $1) }
            if format == .webp {
                // libvips 8.14's WebP saver writes an EXIF chunk whatever it is told.
                do { try WebPMetadata.strip(path) } catch {
                    throw Failure(reason: ErrorText.text(error), system: true, noSpace: ErrorText.isNoSpace(error))
                }
            }
        }

        /// The band values at one pixel (red, green, blue and alpha when there is one).
        package func pixel(x: Int, y: Int) -> [Double] {
            var values = (0.0, 0.0, 0.0, 0.0)
            let count = withUnsafeMutablePointer(to: &values) {
                $0.withMemoryRebound(to: Double.self, capacity: 4) { td_pixel(pointer, Int32(x), Int32(y), $0) }
            }
            return Array([values.0, values.1, values.2, values.3].prefix(Int(count)))
        }

        /// The alpha channel, one byte per pixel in rows; nil when the image is opaque.
        package func alpha() throws(Failure) -> [UInt8]? {
            var bytes: UnsafeMutablePointer<UInt8>?
            try Vips.call { td_alpha(pointer, &bytes, $0, $1) }
            guard let bytes else { return nil }
            defer { td_free(bytes) }
            let size = self.size
            return Array(UnsafeBufferPointer(start: bytes, count: size.width * size.height))
        }
    }

    /// libvips' version. Reading it loads libvips and the hundred libraries it brings, so cache
    /// keys read it through `VipsVersion`. "unavailable" when it cannot be loaded: processing an
    /// image then fails and says why.
    package static let version = td_vips_version().map { String(cString: $0) } ?? "unavailable"

    /// The file libvips was loaded from; nil before it is loaded.
    package static var library: String? { td_vips_library().map { String(cString: $0) } }

    /// Reads the header and metadata without decoding pixels.
    package static func probe(_ path: String, format: ImageFormat) throws(Failure) -> Header {
        try start()
        var raw = td_metadata()
        try call { td_probe(path, format.code, &raw, $0, $1) }
        return Header(raw)
    }

    /// Decodes the whole image, failing on any damage; an SVG is rendered at `size` when given.
    package static func open(_ path: String, format: ImageFormat, maxPixels: Int, size: PixelSize? = nil) throws(Failure) -> Image {
        try start()
        var result: OpaquePointer?
        try call {
            td_open(path, format.code, Int64(maxPixels), Int32(size?.width ?? 0), Int32(size?.height ?? 0), &result, nil, $0, $1)
        }
        return Image(result!)
    }

    /// Decodes a photo and reads its metadata from the same load.
    package static func openPhoto(_ path: String, format: ImageFormat, maxPixels: Int) throws(Failure) -> (Image, Header) {
        try start()
        var result: OpaquePointer?
        var raw = td_metadata()
        try call { td_open(path, format.code, Int64(maxPixels), 0, 0, &result, &raw, $0, $1) }
        return (Image(result!), Header(raw))
    }

    /// Decodes an image held in memory, as a build would, to learn whether it can be published.
    package static func check(_ data: Data, format: ImageFormat, maxPixels: Int) throws(Failure) {
        let path = NSTemporaryDirectory() + "/.teardown-check-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw Failure(reason: "cannot write a temporary file to check the image")
        }
        defer { unlink(path) }
        _ = try open(path, format: format, maxPixels: maxPixels)
    }

    /// Draws `layers` over a transparent canvas, bottom first.
    package static func compose(canvas: PixelSize, layers: [(image: Image, x: Int, y: Int)]) throws(Failure) -> Image {
        try start()
        var result: OpaquePointer?
        let pointers: [OpaquePointer?] = layers.map { $0.image.pointer }
        let xs = layers.map { Int32($0.x) }, ys = layers.map { Int32($0.y) }
        try call { td_compose(Int32(canvas.width), Int32(canvas.height), Int32(layers.count), pointers, xs, ys, &result, $0, $1) }
        return Image(result!)
    }

    private static let started: Failure? = {
        var failure: Failure?
        do throws(Failure) {
            try call { td_start(CommandLine.arguments.first ?? "teardown", $0, $1) }
        } catch {
            failure = error
        }
        return failure
    }()

    private static func start() throws(Failure) {
        if let started { throw started }
    }

    private static func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws(Failure) {
        var buffer = [CChar](repeating: 0, count: 1024)
        let status = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard status == 0 else {
            let message = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw Failure(reason: Self.tidy(String(decoding: message, as: UTF8.self)))
        }
    }

    /// libvips prefixes messages with the operation ("jpegload: ..."), and sometimes repeats a
    /// line: the first distinct lines are kept.
    private static func tidy(_ message: String) -> String {
        var seen = Set<String>()
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        return lines.prefix(2).joined(separator: "; ")
    }
}

private extension Vips.Header {
    init(_ raw: td_metadata) {
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        self.init(width: Int(raw.width), height: Int(raw.height), orientation: Int(raw.orientation),
                  make: text(raw.make), model: text(raw.model), taken: text(raw.taken),
                  latitude: text(raw.latitude), latitudeRef: text(raw.latitude_ref),
                  longitude: text(raw.longitude), longitudeRef: text(raw.longitude_ref))
    }
}
