import CTeardownImage
import Foundation
import TeardownBase

/// The image formats Teardown reads, recognized by their first bytes, never by their name.
package enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp, gif, svg

    package var code: Int32 {
        switch self {
        case .jpeg: Int32(TD_JPEG.rawValue)
        case .png: Int32(TD_PNG.rawValue)
        case .webp: Int32(TD_WEBP.rawValue)
        case .gif: Int32(TD_GIF.rawValue)
        case .svg: Int32(TD_SVG.rawValue)
        }
    }

    /// The extension published files of this format get.
    package var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// Recognizes a raster format from the file's first bytes.
    package static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        return nil
    }

    /// What a file holds, by its first bytes; SVG is text, so it is recognized by its extension
    /// after no raster signature matched.
    package static func of(file path: String) throws(ImageFailure) -> ImageFormat {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .unreadable("the file cannot be read") }
        // A link could publish any image on the machine.
        if (status.st_mode & S_IFMT) == S_IFLNK { throw .unreadable(Problem.symbolicLinkReason) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable("it is not a regular file") }
        guard status.st_size > 0 else { throw .empty }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable("the file cannot be read") }
        // Closing a file opened for reading loses nothing; a short read sniffs as an unknown format.
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 512)) ?? Data()
        if let format = sniff(head) { return format }
        if (path as NSString).pathExtension.lowercased() == "svg", String(decoding: head, as: UTF8.self).contains("<svg") {
            return .svg
        }
        throw .notAnImage
    }
}

/// Why an image could not be used, in words for a warning or an error.
package enum ImageFailure: Error, Equatable, Sendable, Codable {
    case unreadable(String)
    case empty
    case notAnImage
    case wrongFormat(found: ImageFormat)
    case undecodable(String)
    /// The cache's entry could not be written (a full disk): a failure of the build, never the
    /// image's outcome, so it is not kept and the next build makes the image again.
    case unwritten(String)

    package var reason: String {
        switch self {
        case .unreadable(let why): why
        case .empty: "the file is empty"
        case .notAnImage: "not a JPEG, PNG or WebP image (its content is not an image this build can read)"
        case .wrongFormat(let found): "\(found.rawValue.uppercased()) images are not accepted here"
        case .undecodable(let why): "the image cannot be decoded: \(why)"
        case .unwritten(let why): "the image cache cannot be written: \(why)"
        }
    }

    /// A write into the cache that failed, with what to do when the device is full.
    package static func unwritten(writing error: any Error) -> ImageFailure {
        .unwritten(ErrorText.text(error) + (ErrorText.isNoSpace(error) ? ErrorText.noSpaceHint() : ""))
    }
}
