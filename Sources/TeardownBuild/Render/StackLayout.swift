import TeardownBase
import TeardownContent
import TeardownMedia

/// A machine's layers placed on its canvas, worked out once per build: the machine page, its
/// card in the catalog and every one of its part pages show them.
///
/// The machine page draws each layer as an image. The catalog card and the part pages draw the
/// layers as the backgrounds of one element instead: a part page would otherwise repeat an
/// image tag per part of its machine, so a machine's part pages together grew with the square
/// of its part count, in bytes written and in template work.
package struct StackLayout: Sendable {
    package let name: String
    package let canvas: PixelSize
    /// Layer URLs relative to the machine's page, bottom first.
    private let layers: [StackLayerModel]
    /// Each layer as a CSS background: its URL, position and size, keyed like `layers`.
    private let backgrounds: [(url: String, position: String, size: String)]
    /// The layers composed into one image, relative to the machine's page, when it could be made.
    private let composed: String?

    package init(_ machine: MachineSummary) {
        name = machine.name
        canvas = machine.canvas
        composed = machine.composed
        let width = machine.canvas.width, height = machine.canvas.height
        layers = machine.parts.map { part in Self.layer(part, on: machine.canvas, url: part.layer, current: false) }
        // Only a machine whose layers could not be composed is drawn from a list of them.
        backgrounds = composed != nil ? [] : machine.parts.map { part in
            // A percentage position aligns that point of the image with the same point of the
            // box, so a layer at x of a canvas W wide, itself w wide, sits at x / (W - w).
            let x = Self.percent(part.box.x, of: width - part.box.width)
            let y = Self.percent(part.box.y, of: height - part.box.height)
            let size = "\(Self.percent(part.box.width, of: width)) \(Self.percent(part.box.height, of: height))"
            return (part.layer, "\(x) \(y)", size)
        }
    }

    private static func layer(_ part: MachineSummary.Part, on canvas: PixelSize, url: String, current: Bool) -> StackLayerModel {
        StackLayerModel(
            name: part.name, url: url, z: part.z,
            left: percent(part.box.x, of: canvas.width), top: percent(part.box.y, of: canvas.height),
            width: percent(part.box.width, of: canvas.width), height: percent(part.box.height, of: canvas.height),
            current: current)
    }

    /// A part's thumbnail in a list, from the part and its machine's composed image: a list
    /// page shows a part or two of each of many machines, and laying out each machine whole
    /// for them was most of what rendering a list cost. Nil where the machine's layers could
    /// not be composed; its layout then draws the backdrop layer by layer.
    package static func thumbnail(of part: Int, in machine: MachineSummary, prefix: String,
                                  at url: URLPath) -> PartThumbnailModel? {
        guard let composed = machine.composed else { return nil }
        let part = machine.parts[part]
        return PartThumbnailModel(backdrop: backdrop(machine.name, canvas: machine.canvas, composed: prefix + composed),
                                  layer: layer(part, on: machine.canvas, url: Routes.layer(part.layer, of: machine).relative(from: url),
                                               current: true),
                                  window: window(around: part.opaque, on: machine.canvas))
    }

    /// The machine's composed image as a backdrop, without laying the machine out: what a
    /// catalog card shows. Nil where the layers could not be composed.
    package static func backdrop(of machine: MachineSummary, prefix: String) -> BackdropModel? {
        machine.composed.map { backdrop(machine.name, canvas: machine.canvas, composed: prefix + $0) }
    }

    private static func backdrop(_ name: String, canvas: PixelSize, composed url: String) -> BackdropModel {
        BackdropModel(name: name, width: canvas.width, height: canvas.height,
                      style: "background-image: url(\"\(url)\"); background-size: 100% 100%")
    }

    /// Every layer as an image, with URLs prefixed by the way from the page to the machine's page.
    package func stack(prefix: String) -> StackModel {
        let placed = layers.map { layer in
            StackLayerModel(name: layer.name, url: prefix + layer.url, z: layer.z, left: layer.left, top: layer.top,
                            width: layer.width, height: layer.height, current: false)
        }
        return StackModel(name: name, width: canvas.width, height: canvas.height, layers: placed)
    }

    /// The machine as one element's CSS background: its composed layers, or where they could
    /// not be composed, every layer topmost first, leaving out `excluded`. A part page draws
    /// its own layer over it, which hides the part's faded self in the composed image, so a
    /// part page names one image however many parts its machine has.
    package func backdrop(prefix: String, excluding excluded: Int? = nil) -> BackdropModel {
        if let composed { return Self.backdrop(name, canvas: canvas, composed: prefix + composed) }
        var images: [String] = [], positions: [String] = [], sizes: [String] = []
        for index in backgrounds.indices.reversed() where index != excluded {
            // Layer URLs are percent-encoded: a double quote cannot occur in them.
            images.append("url(\"\(prefix)\(backgrounds[index].url)\")")
            positions.append(backgrounds[index].position)
            sizes.append(backgrounds[index].size)
        }
        let style = images.isEmpty ? "" : "background-image: \(images.joined(separator: ", ")); "
            + "background-position: \(positions.joined(separator: ", ")); background-size: \(sizes.joined(separator: ", "))"
        return BackdropModel(name: name, width: canvas.width, height: canvas.height, style: style)
    }

    /// One layer as an image at `url`, for the part page that shows it over its faded machine.
    package func layer(_ index: Int, url: String) -> StackLayerModel {
        let layer = layers[index]
        return StackLayerModel(name: layer.name, url: url, z: layer.z, left: layer.left, top: layer.top,
                               width: layer.width, height: layer.height, current: true)
    }

    /// Where a part's thumbnail looks: a square of the canvas around the part's opaque box (its
    /// hit mask's) with a margin, given as the CSS that places the machine's stack in a square
    /// window. Shown whole, a small part was a speck on its faded machine in the A-Z index and
    /// on tag pages. A part of a few pixels is shown in a twelfth of the canvas at least.
    package func window(around opaque: MachineSummary.Box?) -> String { Self.window(around: opaque, on: canvas) }

    private static func window(around mask: MachineSummary.Box?, on canvas: PixelSize) -> String {
        let width = Double(canvas.width), height = Double(canvas.height)
        guard width > 0, height > 0 else { return "width: 100%" }
        let box = mask.map { (x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height)) }
            ?? (x: 0, y: 0, width: width, height: height)
        let side = min(max(max(box.width, box.height) * 1.3, min(width, height) / 12), max(width, height))
        // Centred on the part, then moved inside the canvas where the square fits in it.
        func start(_ centre: Double, _ extent: Double) -> Double {
            side >= extent ? (extent - side) / 2 : min(max(centre - side / 2, 0), extent - side)
        }
        let left = start(box.x + box.width / 2, width), top = start(box.y + box.height / 2, height)
        return "width: \(percent(width / side)); left: \(percent(-left / side)); top: \(percent(-top / side))"
    }

    private static func percent(_ value: Int, of total: Int) -> String {
        total == 0 ? "0%" : percent(Double(value) / Double(total))
    }

    /// A fraction as a CSS percentage, to a thousandth of a percent.
    private static func percent(_ fraction: Double) -> String {
        "\((fraction * 100 * 1000).rounded() / 1000)%"
    }
}
