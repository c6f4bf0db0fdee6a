/// What a machine's addresses are made from. The loaded machine gives it, and so does the
/// view the renderer reads a machine through (which records what a page read).
package protocol MachineAddressable {
    var slug: String { get }
}

/// What a part's addresses are made from: its slug, and its layer's file for the layer's URL.
package protocol PartAddressable {
    var slug: String { get }
    var layer: Layer { get }
}

extension Machine: MachineAddressable {}
extension Part: PartAddressable {}
extension PartOutline: PartAddressable {}
