/// Convex hull of points (Andrew's monotone chain), counter-clockwise in a y-up frame, no collinear points.
func convexHull(_ input: [Point]) -> [Point] {
    let pts = Array(Set(input)).sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
    guard pts.count > 2 else { return pts }
    func cross(_ o: Point, _ a: Point, _ b: Point) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
    var lower: [Point] = []
    for p in pts {
        while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
        lower.append(p)
    }
    var upper: [Point] = []
    for p in pts.reversed() {
        while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
        upper.append(p)
    }
    return Array(lower.dropLast() + upper.dropLast())
}
