/// A point in pixel coordinates: x right, y down, origin at the page's top-left corner.
public struct Point: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    func distance(to other: Point) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }
}

/// A quadrilateral, corners clockwise from the top-left: top-left, top-right, bottom-right, bottom-left.
public struct Quad: Sendable, Hashable, Codable {
    public var points: [Point]

    public init(_ topLeft: Point, _ topRight: Point, _ bottomRight: Point, _ bottomLeft: Point) {
        points = [topLeft, topRight, bottomRight, bottomLeft]
    }

    /// The axis-aligned rectangle x0 y0 x1 y1 (floor of minima, ceiling of maxima) enclosing the quad.
    public var bounds: (x0: Int, y0: Int, x1: Int, y1: Int) {
        let xs = points.map(\.x), ys = points.map(\.y)
        return (Int((xs.min() ?? 0).rounded(.down)), Int((ys.min() ?? 0).rounded(.down)),
                Int((xs.max() ?? 0).rounded(.up)), Int((ys.max() ?? 0).rounded(.up)))
    }

    /// Width along the text direction: the longer of the top and bottom edges.
    public var edgeWidth: Double { max(points[0].distance(to: points[1]), points[2].distance(to: points[3])) }
    /// Height across it: the longer of the left and right edges.
    public var edgeHeight: Double { max(points[0].distance(to: points[3]), points[1].distance(to: points[2])) }
}
