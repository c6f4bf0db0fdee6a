import Foundation
import TeardownBase
import TeardownContent
import TeardownMedia

/// machine.json: what the interactive machine view needs to draw a machine and take it apart,
/// with URLs relative to the file itself. Version 2 of a documented format (manual: machine view):
/// version 1 held the comments too, so every comment rewrote it whole; they are in
/// discussion.json now (`DiscussionData`).
package struct MachineData: Encodable {
    package struct Box: Encodable {
        package let x: Int
        package let y: Int
        package let width: Int
        package let height: Int
    }

    package struct Mask: Encodable {
        package let columns: Int
        package let rows: Int
        /// One bit per cell, rows top first, most significant bit first, base64.
        package let bits: String
    }

    /// What Details & Discuss shows for the machine or a part, besides its comments.
    package struct Notes: Encodable {
        /// The designer's description as HTML ("" when there is none).
        package let description: String
    }

    /// One photo as the lightbox shows it.
    package struct Slide: Encodable {
        package let image: String
        package let width: Int
        package let height: Int
        package let caption: String
        package let page: String
    }

    package struct PartData: Encodable {
        package let slug: String
        package let name: String
        package let z: Int
        package let image: String
        /// Where the layer image is drawn on the canvas.
        package let box: Box
        /// Where it is opaque, and the mask over that area; absent for a fully transparent layer.
        package let bounds: Box?
        package let mask: Mask?
        package let page: String
        package let photos: String?
        package let photoCount: Int
        package let notes: Notes
        /// The part's own photos, for the lightbox.
        package let lightbox: [Slide]
    }

    package let version = 2
    package let name: String
    package let slug: String
    package let canvas: Box
    package let page: String
    package let photos: String?
    /// discussion.json, which the comment counts and newest comments come from.
    package let discussion: String
    package let notes: Notes
    /// Bottom first.
    package let parts: [PartData]

    /// The same bytes as JSONEncoder with `.sortedKeys` and `.withoutEscapingSlashes` writes
    /// (a test compares them), written by hand (see `JSONWriter`): every object's keys in sorted order.
    package var json: String {
        var writer = JSONWriter(capacity: 1024 + parts.count * 512)
        writer.object { json in
            json.key("canvas"); Self.write(canvas, &json)
            json.member("discussion", discussion)
            json.member("name", name)
            json.key("notes"); Self.write(notes, &json)
            json.member("page", page)
            json.key("parts"); json.array(parts) { json, part in Self.write(part, &json) }
            json.member("photos", photos)
            json.member("slug", slug)
            json.member("version", version)
        }
        return writer.text
    }

    private static func write(_ box: Box, _ json: inout JSONWriter) {
        json.object { json in
            json.member("height", box.height)
            json.member("width", box.width)
            json.member("x", box.x)
            json.member("y", box.y)
        }
    }

    private static func write(_ notes: Notes, _ json: inout JSONWriter) {
        json.object { json in
            json.member("description", notes.description)
        }
    }

    private static func write(_ part: PartData, _ json: inout JSONWriter) {
        json.object { json in
            if let bounds = part.bounds { json.key("bounds"); write(bounds, &json) }
            json.key("box"); write(part.box, &json)
            json.member("image", part.image)
            json.key("lightbox")
            json.array(part.lightbox) { json, slide in
                json.object { json in
                    json.member("caption", slide.caption)
                    json.member("height", slide.height)
                    json.member("image", slide.image)
                    json.member("page", slide.page)
                    json.member("width", slide.width)
                }
            }
            if let mask = part.mask {
                json.key("mask")
                json.object { json in
                    json.member("bits", mask.bits)
                    json.member("columns", mask.columns)
                    json.member("rows", mask.rows)
                }
            }
            json.member("name", part.name)
            json.key("notes"); write(part.notes, &json)
            json.member("page", part.page)
            json.member("photoCount", part.photoCount)
            json.member("photos", part.photos)
            json.member("slug", part.slug)
            json.member("z", part.z)
        }
    }
}

extension MachineData {
    /// `notes` renders a description; `slides` lists photos kept under a page.
    package init(_ machine: MachineView, images: ProcessedImages, at url: URLPath,
         notes: (MarkdownSource?) -> Notes, slides: ([Photo], URLPath) -> [Slide]) {
        name = machine.name
        slug = machine.slug
        canvas = Box(x: 0, y: 0, width: machine.canvas.width, height: machine.canvas.height)
        let base = Routes.machine(machine)
        page = base.relative(from: url)
        // Through the gallery's unit, not the counts', which a comment changes.
        photos = machine.galleryPhotos.isEmpty ? nil : Routes.gallery(base).relative(from: url)
        discussion = Routes.machineDiscussion(machine).relative(from: url)
        self.notes = notes(machine.description)
        parts = machine.parts.map { part in
            let layer = images.layer(part.layer.image.absolutePath)
            let partURL = Routes.part(part, of: machine)
            return PartData(
                slug: part.slug, name: part.name, z: part.layer.z,
                image: Routes.layer(part, of: machine, optimized: images.isOptimized(part.layer)).relative(from: url),
                box: Box(x: part.layer.x, y: part.layer.y, width: part.layer.size.width, height: part.layer.size.height),
                bounds: layer?.mask.map { Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
                mask: layer?.mask.map { Mask(columns: $0.columns, rows: $0.rows, bits: $0.bits) },
                page: partURL.relative(from: url),
                photos: part.community.photos.isEmpty ? nil : Routes.gallery(partURL).relative(from: url),
                photoCount: part.community.photos.count,
                notes: notes(part.description),
                lightbox: slides(part.community.photos, partURL))
        }
    }
}
