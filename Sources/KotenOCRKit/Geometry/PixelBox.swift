/// An axis-aligned box in integer pixel coordinates of the page image (origin top-left,
/// x to the right, y down), stored as corners: `x1,y1` inclusive start, `x2,y2` end.
///
/// The NDL pipelines write boxes as `X, Y, WIDTH, HEIGHT`; `x2 = X + WIDTH`, `y2 = Y + HEIGHT`.
/// Coordinates may be negative or run past the image (koten boxes above the top edge,
/// DEIM boxes in the padding); nothing here clamps them.
public struct PixelBox: Sendable, Hashable, Codable {
    public var x1: Int
    public var y1: Int
    public var x2: Int
    public var y2: Int

    public init(x1: Int, y1: Int, x2: Int, y2: Int) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// A box from the XML form `X, Y, WIDTH, HEIGHT`.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(x1: x, y1: y, x2: x + width, y2: y + height)
    }

    /// `x2 - x1` (negative for an inverted box).
    public var width: Int { x2 - x1 }
    /// `y2 - y1` (negative for an inverted box).
    public var height: Int { y2 - y1 }
}

extension PixelBox {
    /// The box as a quad, corners clockwise from the top-left, in the same pixels.
    public var quad: Quad {
        Quad(Point(x: Double(x1), y: Double(y1)), Point(x: Double(x2), y: Double(y1)),
             Point(x: Double(x2), y: Double(y2)), Point(x: Double(x1), y: Double(y2)))
    }
}
