import Foundation

/// machine.json: what the interactive machine view needs to draw a machine and take it apart,
/// with URLs relative to the file itself. Version 1 of a documented format (manual: machine view).
struct MachineData: Encodable {
    struct Box: Encodable {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
    }

    struct Mask: Encodable {
        let columns: Int
        let rows: Int
        /// One bit per cell, rows top first, most significant bit first, base64.
        let bits: String
    }

    struct PartData: Encodable {
        let slug: String
        let name: String
        let z: Int
        let image: String
        /// Where the layer image is drawn on the canvas.
        let box: Box
        /// Where it is opaque, and the mask over that area; absent for a fully transparent layer.
        let bounds: Box?
        let mask: Mask?
        let page: String
        let photos: String?
        let comments: Int
        let photoCount: Int
    }

    let version = 1
    let name: String
    let slug: String
    let canvas: Box
    let page: String
    let photos: String?
    /// Bottom first.
    let parts: [PartData]

    init(_ machine: Machine, images: ProcessedImages, at url: URLPath) {
        name = machine.name
        slug = machine.slug
        canvas = Box(x: 0, y: 0, width: machine.canvas.width, height: machine.canvas.height)
        let base = Routes.machine(machine)
        page = base.relative(from: url)
        photos = machine.photoCount > 0 ? Routes.gallery(base).relative(from: url) : nil
        parts = machine.parts.map { part in
            let layer = images.layers[part.layer.image.absolutePath]
            let partURL = Routes.part(part, of: machine)
            return PartData(
                slug: part.slug, name: part.name, z: part.layer.z,
                image: Routes.layer(part, of: machine, optimized: images.isOptimized(part.layer)).relative(from: url),
                box: Box(x: part.layer.x, y: part.layer.y, width: part.layer.size.width, height: part.layer.size.height),
                bounds: layer?.mask.map { Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
                mask: layer?.mask.map { Mask(columns: $0.columns, rows: $0.rows, bits: $0.bits) },
                page: partURL.relative(from: url),
                photos: part.community.photos.isEmpty ? nil : Routes.gallery(partURL).relative(from: url),
                comments: part.community.comments.count, photoCount: part.community.photos.count)
        }
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
