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
