import Foundation
import Testing
import ZIPFoundation
@testable import TeardownMedia
@testable import TeardownInbox

/// The GPS position leaves a photo's bytes; its pixels, orientation and camera stay.
@Suite struct LocationScrubberTests {
    static let photos = Fixtures.site("photos") + "/content/machines/camera/parts/body/photos/"

    private func header(_ data: Data, _ format: ImageFormat) throws -> Vips.Header {
        let path = Fixtures.temporaryFolder() + "/image." + format.fileExtension
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try data.write(to: URL(fileURLWithPath: path))
        return try Vips.openPhoto(path, format: format, maxPixels: 40_000_000).1
    }

    @Test(arguments: ["workbench.jpg", "orientation-6.jpg", "webp-source.webp"])
    func positionIsRemovedAndTheRestKept(_ name: String) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.photos + name))
        let format: ImageFormat = name.hasSuffix(".webp") ? .webp : .jpeg
        let before = try header(original, format)
        #expect(!before.latitude.isEmpty, "the fixture carries a position")

        let scrubbed = try #require(LocationScrubber.scrub(original, format: format))
        let after = try header(scrubbed, format)
        #expect(after.latitude.isEmpty && after.longitude.isEmpty && after.latitudeRef.isEmpty)
        #expect(after.orientation == before.orientation)
        #expect(after.make == before.make && after.taken == before.taken)
        #expect(!scrubbed.contains(Data("48/1".utf8)) && scrubbed.count <= original.count)
        if format == .jpeg {
            // Lossless: the compressed picture after the start of scan is the same bytes.
            let scan = Data([0xFF, 0xDA])
            #expect(original[original.range(of: scan)!.lowerBound...] == scrubbed[scrubbed.range(of: scan)!.lowerBound...])
        }
    }

    @Test func pngExifChunkIsZeroedWithAFreshChecksum() throws {
        // A PNG with the JPEG fixture's EXIF block in an eXIf chunk after its header.
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.photos + "workbench.jpg"))
        let start = jpeg.range(of: Data("Exif\0\0".utf8))!.upperBound
        let length = Int(jpeg[start - 8]) << 8 | Int(jpeg[start - 7])
        let tiff = jpeg[start..<(start - 6 + length - 2)]
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGM4ISf3X07uxH8AECsEBxOnYNoAAAAASUVORK5CYII=")!
        var chunk = Data()
        let size = UInt32(tiff.count)
        chunk.append(contentsOf: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        chunk.append(Data("eXIf".utf8) + tiff)
        let crc = (Data("eXIf".utf8) + tiff).crc32(checksum: 0)
        chunk.append(contentsOf: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        let withExif = png[..<33] + chunk + png[33...]
        #expect(!(try header(withExif, .png)).latitude.isEmpty)

        let scrubbed = try #require(LocationScrubber.scrub(withExif, format: .png))
        #expect(try header(scrubbed, .png).latitude.isEmpty)
        let data = scrubbed[(33 + 4)..<(33 + 8 + tiff.count)]
        let stored = scrubbed[(33 + 8 + tiff.count)..<(33 + 12 + tiff.count)]
        let fresh = data.crc32(checksum: 0)
        #expect(Array(stored) == [UInt8(fresh >> 24), UInt8(fresh >> 16 & 0xFF), UInt8(fresh >> 8 & 0xFF), UInt8(fresh & 0xFF)])
    }

    @Test func xmpPacketsAreDropped() throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.photos + "workbench.jpg"))
        let xmp = Data("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude></x:xmpmeta>".utf8)
        let segment = Data([0xFF, 0xE1, UInt8((xmp.count + 2) >> 8), UInt8((xmp.count + 2) & 0xFF)]) + xmp
        let withXMP = jpeg[..<2] + segment + jpeg[2...]
        let scrubbed = try #require(LocationScrubber.scrub(withXMP, format: .jpeg))
        #expect(scrubbed.range(of: Data("GPSLatitude".utf8)) == nil)
        #expect(try header(scrubbed, .jpeg).width == (try header(jpeg, .jpeg)).width)
    }

    @Test func structureThatCannotBeWalkedIsRefused() {
        #expect(LocationScrubber.scrub(Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x00]), format: .jpeg) == nil)
        #expect(LocationScrubber.scrub(Data("RIFF\u{10}\0\0\0WEBPEXIF".utf8) + Data([0xFF, 0xFF, 0, 0]), format: .webp) == nil)
    }
}

/// The places a position hides in a JPEG beyond IFD0's one GPS directory, each as a real reader
/// (exiftool) finds it, and gone after scrubbing.
@Suite struct HiddenLocationTests {
    /// What exiftool reads of GPS in `data`, every copy of every tag (`-a`), by group.
    private func gps(_ data: Data) throws -> String {
        let path = Fixtures.temporaryFolder() + "/image.jpg"
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try data.write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-a", "-G1", "-n", "-ee", "-GPS*", "-XMP:GPS*", "-Photoshop:all", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    /// A picture with no metadata at all: the fixture, with exiftool's `-all=`.
    private func bare() throws -> Data {
        let folder = Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-q", "-all=", "-o", folder + "/bare.jpg", LocationScrubberTests.photos + "orientation-1.jpg"]
        try process.run()
        process.waitUntilExit()
        return try Data(contentsOf: URL(fileURLWithPath: folder + "/bare.jpg"))
    }

    private static func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(value >> (8 * $0) & 0xFF) } }

    /// A directory of (tag, type, count, value or offset) entries, then the next directory's offset.
    private static func directory(_ entries: [(Int, Int, Int, Int)], next: Int = 0) -> [UInt8] {
        le(entries.count, 2) + entries.flatMap { le($0.0, 2) + le($0.1, 2) + le($0.2, 4) + le($0.3, 4) } + le(next, 4)
    }

    /// A GPS directory at `at` whose latitude's three rationals follow it: 30 + 24 bytes.
    private static func gpsDirectory(at: Int, degrees: Int) -> [UInt8] {
        directory([(0x0001, 2, 2, 0x4E), (0x0002, 5, 3, at + 30)]) + [degrees, 51, 30].flatMap { le($0, 4) + le(1, 4) }
    }

    /// `bare` with an APP1 Exif segment holding `tiff`.
    private static func withExif(_ bare: Data, _ tiff: [UInt8]) -> Data {
        let payload = Array("Exif\0\0".utf8) + tiff
        return bare[..<2] + Data([0xFF, 0xE1] + [UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload) + bare[2...]
    }

    @Test("Two GPS pointers in IFD0, one in the Exif directory and one in IFD1: every one is emptied")
    func everyDirectoryIsScrubbed() throws {
        let bare = try bare()
        let header = Array("II*\0".utf8) + Self.le(8, 4)
        // IFD0 at 8 with two GPS pointers (30 bytes), then the two directories.
        let twice = header + Self.directory([(0x8825, 4, 1, 38), (0x8825, 4, 1, 92)])
            + Self.gpsDirectory(at: 38, degrees: 48) + Self.gpsDirectory(at: 92, degrees: 12)
        // IFD0 at 8 points to the Exif directory at 26, which points to GPS at 44.
        let inExif = header + Self.directory([(0x8769, 4, 1, 26)]) + Self.directory([(0x8825, 4, 1, 44)])
            + Self.gpsDirectory(at: 44, degrees: 48)
        // An empty IFD0 at 8 chains to IFD1 at 14, which points to GPS at 32.
        let inIFD1 = header + Self.directory([], next: 14) + Self.directory([(0x8825, 4, 1, 32)]) + Self.gpsDirectory(at: 32, degrees: 48)
        for (name, tiff) in [("two pointers", twice), ("in the Exif directory", inExif), ("in IFD1", inIFD1)] {
            let photo = Self.withExif(bare, tiff)
            let scrubbed = try #require(LocationScrubber.scrub(photo, format: .jpeg), "\(name)")
            let found = try gps(scrubbed)
            #expect(!found.contains("GPS Latitude"), "\(name): \(found)")
            // Byte by byte: no latitude's rationals are left for any reader.
            for degrees in [48, 12] {
                #expect(scrubbed.range(of: Data(Self.le(degrees, 4) + Self.le(1, 4) + Self.le(51, 4))) == nil, "\(name)")
            }
            #expect(scrubbed.count == photo.count, "\(name): zeroed in place")
        }
        #expect(try gps(Self.withExif(bare, twice)).contains("GPS Latitude"), "the reader finds the position before")
    }

    @Test("XMP inside Photoshop's APP13 resources is dropped")
    func photoshopResourcesAreDropped() throws {
        let bare = try bare()
        let xmp = Array(("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
            + "<rdf:Description xmlns:exif='http://ns.adobe.com/exif/1.0/' exif:GPSLatitude='48,51.5N' "
            + "exif:GPSLongitude='2,17.67E'/></rdf:RDF></x:xmpmeta> ").utf8)
        let resource = Array("8BIM".utf8) + [0x04, 0x24, 0, 0] + [0, 0, UInt8(xmp.count >> 8), UInt8(xmp.count & 0xFF)] + xmp
        let payload = Array("Photoshop 3.0\0".utf8) + resource
        let photo = bare[..<2] + Data([0xFF, 0xED, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload)
            + bare[2...]
        let before = try gps(photo)
        #expect(before.contains("GPS Latitude"), "the reader finds the position before: \(before)")
        let scrubbed = try #require(LocationScrubber.scrub(photo, format: .jpeg))
        let after = try gps(scrubbed)
        #expect(!after.contains("GPS"), "\(after)")
        #expect(scrubbed == bare)
    }

    @Test("A second picture after the first one's end, as phones' motion and multi-picture photos carry, is dropped")
    func trailingPictureIsDropped() throws {
        let bare = try bare()
        let second = try Data(contentsOf: URL(fileURLWithPath: LocationScrubberTests.photos + "workbench.jpg"))
        let photo = bare + second
        #expect(photo.range(of: Data("Exif\0\0".utf8)) != nil)
        let scrubbed = try #require(LocationScrubber.scrub(photo, format: .jpeg))
        #expect(scrubbed == bare, "\(scrubbed.count) bytes against \(bare.count)")
        #expect(!(try gps(scrubbed)).contains("GPS"))
    }
}
