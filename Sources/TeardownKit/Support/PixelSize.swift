/// Width and height in pixels (or SVG user units).
public struct PixelSize: Sendable, Hashable, Codable {
    public let width: Int
    public let height: Int
}
