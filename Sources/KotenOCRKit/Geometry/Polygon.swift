/// Area (shoelace, absolute) of a closed polygon.
func polygonArea(_ p: [Point]) -> Double {
    guard p.count >= 3 else { return 0 }
    var s = 0.0
    for i in 0..<p.count {
        let a = p[i], b = p[(i + 1) % p.count]
        s += a.x * b.y - b.x * a.y
    }
    return abs(s) / 2
}

/// Perimeter of a closed polygon.
func polygonPerimeter(_ p: [Point]) -> Double {
    guard p.count >= 2 else { return 0 }
    return (0..<p.count).reduce(0) { $0 + p[$1].distance(to: p[($1 + 1) % p.count]) }
}

/// Whether `q` lies inside the polygon (even-odd rule; points on an edge may go either way).
func polygonContains(_ p: [Point], _ q: Point) -> Bool {
    var inside = false
    var j = p.count - 1
    for i in 0..<p.count {
        let a = p[i], b = p[j]
        if (a.y > q.y) != (b.y > q.y) {
            let x = (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x
            if q.x < x { inside.toggle() }
        }
        j = i
    }
    return inside
}
