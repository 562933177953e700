import Foundation

/// A rectangle of any rotation: centre, side lengths, and the direction of its `width` side.
package struct RotatedRect: Sendable, Equatable {
    public var center: Point
    /// Length of the side along `angle`.
    public var width: Double
    /// Length of the side across it.
    public var height: Double
    /// Direction of the width side, radians.
    public var angle: Double

    /// The shorter side.
    public var shortSide: Double { min(width, height) }

    /// The minimum-area rectangle enclosing `points` (rotating calipers over the convex hull).
    /// Degenerate input (fewer than 3 distinct points or collinear) gives a rectangle of zero height.
    public init(enclosing points: [Point]) {
        let hull = convexHull(points)
        guard hull.count >= 2 else {
            center = hull.first ?? Point(x: 0, y: 0)
            width = 0; height = 0; angle = 0
            return
        }
        var best = (area: Double.infinity, rect: (Point(x: 0, y: 0), 0.0, 0.0, 0.0))
        for i in 0..<hull.count {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            let len = a.distance(to: b)
            guard len > 0 else { continue }
            let ux = (b.x - a.x) / len, uy = (b.y - a.y) / len
            var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
            for p in hull {
                let u = p.x * ux + p.y * uy, v = -p.x * uy + p.y * ux
                minU = min(minU, u); maxU = max(maxU, u); minV = min(minV, v); maxV = max(maxV, v)
            }
            let area = (maxU - minU) * (maxV - minV)
            if area < best.area {
                let cu = (minU + maxU) / 2, cv = (minV + maxV) / 2
                let c = Point(x: cu * ux - cv * uy, y: cu * uy + cv * ux)
                best = (area, (c, maxU - minU, maxV - minV, atan2(uy, ux)))
            }
        }
        center = best.rect.0
        width = best.rect.1
        height = best.rect.2
        angle = best.rect.3
    }

    public init(center: Point, width: Double, height: Double, angle: Double) {
        self.center = center
        self.width = width
        self.height = height
        self.angle = angle
    }

    /// The four corners, in no particular order.
    public var corners: [Point] {
        let ux = cos(angle), uy = sin(angle)
        let hw = width / 2, hh = height / 2
        return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { du, dv in
            Point(x: center.x + du * ux - dv * uy, y: center.y + du * uy + dv * ux)
        }
    }

    /// The corners as a `Quad` in the rectangle's own frame, whatever its rotation: its x axis is the side
    /// closer to the page's horizontal, pointing right, its y axis the other side, pointing down; the corners
    /// run clockwise from the top-left in that frame. So `edgeWidth` is the side across the page's x and
    /// `edgeHeight` the side along its y, for a line skewed by any angle under 45° (a tall column skewed by 2°
    /// starts at its own top-left corner, not at whichever corner has the smallest x).
    public var quad: Quad {
        let u = Point(x: cos(angle), y: sin(angle)), v = Point(x: -sin(angle), y: cos(angle))
        // The axis nearer the page's x direction, turned to point right; y is that axis turned 90° clockwise
        // on screen (y down), so it points down and the order is clockwise.
        let alongU = abs(u.x) >= abs(v.x)
        let axis = alongU ? u : v
        let sign: Double = axis.x < 0 || (axis.x == 0 && axis.y > 0) ? -1 : 1
        let ex = Point(x: axis.x * sign, y: axis.y * sign), ey = Point(x: -ex.y, y: ex.x)
        let hx = (alongU ? width : height) / 2, hy = (alongU ? height : width) / 2
        func corner(_ a: Double, _ b: Double) -> Point {
            Point(x: center.x + a * hx * ex.x + b * hy * ey.x, y: center.y + a * hx * ex.y + b * hy * ey.y)
        }
        return Quad(corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1))
    }

    /// Grown outward by `distance` on every side (the unclip of a rectangle: the minimum-area rectangle of a
    /// rounded offset polygon is the rectangle grown by the offset).
    public func expanded(by distance: Double) -> RotatedRect {
        RotatedRect(center: center, width: width + 2 * distance, height: height + 2 * distance, angle: angle)
    }
}
