import Foundation
import TeardownBase
import TeardownContent
import TeardownMedia

/// What a page outside a machine shows of it: its name and canvas, its composed image and
/// cover, and each part's slug, name, tags and layer as placed and published. The listing pages
/// draw their entries from it, and the machine's layout is made from it.
///
/// A machine the build digests has its summary made from its head and image outcomes, and
/// the build store keeps it in the machine's row; a machine the store vouches for is read
/// back by slug, so a listing page that names a part of every machine decodes no machine's
/// head and no image row. What it draws follows from the machine's head unit (its layers,
/// their image keys, whether each is optimized), its cover from the cover unit, and the parts'
/// tags, which only the site index files by, from their facts: a page records the unit of what
/// it shows.
package struct MachineSummary: Sendable, Hashable, Codable, MachineAddressable {
    package let slug: String
    package let name: String
    package let canvas: PixelSize
    /// The layers composed into one image, relative to the machine's page; nil where they could not be.
    package let composed: String?
    /// The sizes of its cover's copies, narrowest first: the cover photo machine.yaml names, or
    /// else the layers composed; nil without either. A catalog card shows it.
    package let cover: [PixelSize]?
    /// Bottom first.
    package let parts: [Part]

    package struct Part: Sendable, Hashable, Codable {
        package let slug: String
        package let name: String
        package let tags: [String]
        package let z: Int
        package let box: Box
        /// The layer's published image, relative to the machine's page.
        package let layer: String
        /// The layer's opaque area on the canvas, where it has a hit mask.
        package let opaque: Box?
    }

    /// A rectangle on the canvas, in canvas units.
    package struct Box: Sendable, Hashable, Codable {
        package let x: Int
        package let y: Int
        package let width: Int
        package let height: Int
    }
}

extension MachineSummary {
    /// The form the build store keeps it in.
    package var encoded: [UInt8] { (try? [UInt8](BinaryEncoder().encode(self))) ?? [] }

    /// A summary as the store kept it; nil when the bytes are not one a build writes (a row of
    /// another layout, damage, or a URL that is not percent-encoded: the URLs are written into
    /// CSS strings, where a quote or a backslash would end them).
    package init?(encoded bytes: [UInt8]) {
        let source = BinaryDecoder.Source(bytes: bytes)
        guard let summary = try? MachineSummary(reading: source), source.position == bytes.count,
              ([summary.composed ?? ""] + summary.parts.map(\.layer)).allSatisfy(Self.isEncodedURL)
        else { return nil }
        self = summary
    }

    /// Whether `url` holds only what a percent-encoded path does.
    private static func isEncodedURL(_ url: String) -> Bool {
        url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Made from the machine's head and its image outcomes.
    package init(_ machine: MachineView, images: ProcessedImages) {
        slug = machine.slug
        name = machine.name
        canvas = machine.canvas
        composed = machine.parts.isEmpty ? nil : images.composedStack(of: machine).map { stack in
            Routes.composedStack(machine, width: stack.width, isCover: stack.isCover).relative(from: Routes.machine(machine))
        }
        cover = images.cover(slug: machine.slug, named: machine.coverFile)?.variants.map {
            PixelSize(width: $0.width, height: $0.height)
        }
        parts = machine.parts.map { part in
            let processed = images.layer(part.layer.image.absolutePath)
            let layer = part.layer
            return Part(slug: part.slug, name: part.name, tags: part.tags, z: layer.z,
                        box: Box(x: layer.x, y: layer.y, width: layer.size.width, height: layer.size.height),
                        layer: Routes.layerInMachine(part, optimized: processed?.published != nil),
                        opaque: processed?.mask.map { Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) })
        }
    }
}

// Read by hand, in the order `Codable` wrote it: decoded through `Decodable`, the summaries a
// listing build reads back were the larger part of its plan step.
extension MachineSummary: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        slug = try source.string()
        name = try source.string()
        canvas = try source.read()
        composed = try source.optionalString()
        cover = try source.flag() ? source.array() : nil
        parts = try source.array()
    }
}

extension MachineSummary.Part: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        slug = try source.string()
        name = try source.string()
        tags = try source.strings()
        z = try source.signed()
        box = try source.read()
        layer = try source.string()
        opaque = try source.optional()
    }
}

extension MachineSummary.Box: BinaryReadable {
    package init(reading source: BinaryDecoder.Source) throws {
        x = try source.signed()
        y = try source.signed()
        width = try source.signed()
        height = try source.signed()
    }
}
