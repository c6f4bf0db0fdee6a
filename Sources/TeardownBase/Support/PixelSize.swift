/// Width and height in pixels (or SVG user units).
public struct PixelSize: Sendable, Hashable, Codable {
    public let width: Int
    public let height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
