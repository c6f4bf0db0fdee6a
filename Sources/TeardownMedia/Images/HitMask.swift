import Foundation
import TeardownBase

/// Where a layer is opaque, for the machine view to select the part under the pointer
/// without loading the images into a canvas: the layer's bounding box on the machine's canvas
/// and a coarse grid of cells over it, set where any pixel of the cell is opaque enough.
package struct HitMask: Sendable, Hashable, Codable {
    /// The opaque area on the canvas, in canvas units.
    package let x: Int
    package let y: Int
    package let width: Int
    package let height: Int
    package let columns: Int
    package let rows: Int
    /// One bit per cell, rows top first, most significant bit first, base64.
    package let bits: String

    /// Cells along the longer side of the bounding box, at most.
    package static let resolution = 64
    /// Alpha at or above which a pixel counts as part of the layer.
    package static let threshold: UInt8 = 32

    /// The mask of an image `size` pixels large whose alpha is `alpha` (nil: opaque), drawn in
    /// the box `box` of the canvas.
    package init?(alpha: [UInt8]?, size: PixelSize, box: (x: Int, y: Int, width: Int, height: Int)) {
        guard size.width > 0, size.height > 0 else { return nil }
        var left = size.width, top = size.height, right = -1, bottom = -1
        if let alpha {
            for row in 0..<size.height {
                let start = row * size.width
                var first = -1, last = -1
                for column in 0..<size.width where alpha[start + column] >= Self.threshold {
                    if first < 0 { first = column }
                    last = column
                }
                guard first >= 0 else { continue }
                left = min(left, first)
                right = max(right, last)
                if top == size.height { top = row }
                bottom = row
            }
            guard right >= 0 else { return nil }
        } else {
            (left, top, right, bottom) = (0, 0, size.width - 1, size.height - 1)
        }
        let pixelsWide = right - left + 1, pixelsHigh = bottom - top + 1
        let cell = max(1, (max(pixelsWide, pixelsHigh) + Self.resolution - 1) / Self.resolution)
        let columns = (pixelsWide + cell - 1) / cell, rows = (pixelsHigh + cell - 1) / cell
        var bytes = [UInt8](repeating: 0, count: (columns * rows + 7) / 8)
        for row in 0..<rows {
            for column in 0..<columns {
                var hit = alpha == nil
                if let alpha {
                    search: for y in (top + row * cell)..<min(bottom + 1, top + (row + 1) * cell) {
                        for x in (left + column * cell)..<min(right + 1, left + (column + 1) * cell)
                        where alpha[y * size.width + x] >= Self.threshold {
                            hit = true
                            break search
                        }
                    }
                }
                if hit {
                    let index = row * columns + column
                    bytes[index / 8] |= 0x80 >> UInt8(index % 8)
                }
            }
        }
        // The image may be drawn larger or smaller than it is: its box scales it.
        let scaleX = Double(box.width) / Double(size.width), scaleY = Double(box.height) / Double(size.height)
        x = box.x + Int((Double(left) * scaleX).rounded(.down))
        y = box.y + Int((Double(top) * scaleY).rounded(.down))
        width = max(1, Int((Double(pixelsWide) * scaleX).rounded(.up)))
        height = max(1, Int((Double(pixelsHigh) * scaleY).rounded(.up)))
        self.columns = columns
        self.rows = rows
        bits = Data(bytes).base64EncodedString()
    }

    /// Whether the canvas point is on an opaque cell.
    package func contains(x pointX: Double, y pointY: Double) -> Bool {
        guard pointX >= Double(x), pointY >= Double(y), pointX < Double(x + width), pointY < Double(y + height),
              let data = Data(base64Encoded: bits) else { return false }
        let column = min(columns - 1, Int((pointX - Double(x)) / Double(width) * Double(columns)))
        let row = min(rows - 1, Int((pointY - Double(y)) / Double(height) * Double(rows)))
        let index = row * columns + column
        return data[index / 8] & (0x80 >> UInt8(index % 8)) != 0
    }
}
