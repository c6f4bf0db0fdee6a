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

    package init(_ machine: MachineView, images: ProcessedImages) {
        let optimized = { (part: PartView) in images.isOptimized(part.layer) }
        name = machine.name
        canvas = machine.canvas
        // Whether it could be made follows from the layers, which are the machine's head.
        composed = machine.parts.isEmpty ? nil : images.composedStack(of: machine).map { stack in
            Routes.composedStack(machine, width: stack.width, isCover: stack.isCover).relative(from: Routes.machine(machine))
        }
        let width = machine.canvas.width, height = machine.canvas.height
        layers = machine.parts.map { part in
            StackLayerModel(
                name: part.name, url: Routes.layerInMachine(part, optimized: optimized(part)), z: part.layer.z,
                left: Self.percent(part.layer.x, of: width), top: Self.percent(part.layer.y, of: height),
                width: Self.percent(part.layer.size.width, of: width),
                height: Self.percent(part.layer.size.height, of: height),
                current: false)
        }
        // Only a machine whose layers could not be composed is drawn from a list of them.
        backgrounds = composed != nil ? [] : machine.parts.map { part in
            // A percentage position aligns that point of the image with the same point of the
            // box, so a layer at x of a canvas W wide, itself w wide, sits at x / (W - w).
            let x = Self.percent(part.layer.x, of: width - part.layer.size.width)
            let y = Self.percent(part.layer.y, of: height - part.layer.size.height)
            let size = "\(Self.percent(part.layer.size.width, of: width)) \(Self.percent(part.layer.size.height, of: height))"
            return (Routes.layerInMachine(part, optimized: optimized(part)), "\(x) \(y)", size)
        }
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
        if let composed {
            return BackdropModel(name: name, width: canvas.width, height: canvas.height,
                                 style: "background-image: url(\"\(prefix)\(composed)\"); background-size: 100% 100%")
        }
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
    package func window(around mask: HitMask?) -> String {
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
        return "width: \(Self.percent(width / side)); left: \(Self.percent(-left / side)); top: \(Self.percent(-top / side))"
    }

    private static func percent(_ value: Int, of total: Int) -> String {
        total == 0 ? "0%" : percent(Double(value) / Double(total))
    }

    /// A fraction as a CSS percentage, to a thousandth of a percent.
    private static func percent(_ fraction: Double) -> String {
        "\((fraction * 100 * 1000).rounded() / 1000)%"
    }
}
