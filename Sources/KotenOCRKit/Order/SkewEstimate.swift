import Foundation

/// The skew of a page, estimated from the outlines of its lines.
///
/// Each outline that is clearly longer than thick (long side ≥ 2 × short side) gives the direction of its long
/// side, folded onto the nearest axis (a vertical line's long side is vertical), so horizontal and vertical lines
/// both vote. The page's skew is the median of those angles weighted by the long sides' lengths: a few stray
/// boxes (ruby, a stamp) do not move it. Outlines whose sides are axis-aligned (NDL's detectors) give 0.
/// Angles are radians in image coordinates (x right, y down): positive when a horizontal line runs down to the
/// right, i.e. the page was turned clockwise on screen.
enum SkewEstimate {
    /// The weighted median skew of `outlines` (each four corners in order around the outline); 0 when no
    /// outline is long enough to show a direction.
    static func angle(of outlines: [[Point]]) -> Double {
        var votes: [(angle: Double, weight: Double)] = []
        for outline in outlines where outline.count == 4 {
            let a = vector(outline[0], outline[1]), b = vector(outline[1], outline[2])
            let la = hypot(a.x, a.y), lb = hypot(b.x, b.y)
            let (long, short, direction) = la >= lb ? (la, lb, a) : (lb, la, b)
            guard long > 0, long >= 2 * short else { continue }
            votes.append((folded(atan2(direction.y, direction.x)), long))
        }
        guard !votes.isEmpty else { return 0 }
        votes.sort { $0.angle < $1.angle }
        let half = votes.reduce(0) { $0 + $1.weight } / 2
        var sum = 0.0
        for vote in votes {
            sum += vote.weight
            if sum >= half { return vote.angle }
        }
        return votes[votes.count - 1].angle
    }

    /// `angle` folded onto the nearest multiple of 90°: the result is in [−45°, 45°).
    static func folded(_ angle: Double) -> Double {
        let quarter = Double.pi / 2
        var a = angle.truncatingRemainder(dividingBy: quarter)
        if a >= quarter / 2 { a -= quarter }
        if a < -quarter / 2 { a += quarter }
        return a
    }

    private static func vector(_ p: Point, _ q: Point) -> (x: Double, y: Double) { (q.x - p.x, q.y - p.y) }
}

/// The frame a page's reading order is made in: the page's own, its skew turned back (upright pages; a turned
/// page is mapped upright before, `PageRotation`).
struct PageFrame {
    /// The page's skew (`SkewEstimate`), radians.
    let skew: Double

    /// `p` turned by −skew about the origin (the XY-cut shifts its boxes to the origin anyway).
    func map(_ p: Point) -> Point {
        let c = cos(skew), s = sin(skew)
        return Point(x: p.x * c + p.y * s, y: -p.x * s + p.y * c)
    }

    /// The axis-aligned box of `outline` in this frame, widened to whole pixels.
    func box(of outline: [Point]) -> PixelBox {
        let mapped = outline.map(map)
        let xs = mapped.map(\.x), ys = mapped.map(\.y)
        return PixelBox(x1: Int((xs.min() ?? 0).rounded(.down)), y1: Int((ys.min() ?? 0).rounded(.down)),
                        x2: Int((xs.max() ?? 0).rounded(.up)), y2: Int((ys.max() ?? 0).rounded(.up)))
    }
}
