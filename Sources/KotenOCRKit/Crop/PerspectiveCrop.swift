/// Cuts a quadrilateral out of a page and warps it to an upright rectangle, at source resolution.
///
/// Size: width = the longer of the top and bottom edges, height = the longer of the left and right edges
/// (truncated to whole pixels, at least 1). Each output pixel centre (u, v) maps through the homography
/// taking the rectangle's corners to the quad's; it is sampled bilinearly, with coordinates outside the page
/// clamped to its edge (border replicate). Reference: docs/reference-pipelines.md §4, "Step 2".
package func perspectiveCrop(_ page: RGBImage, quad: Quad) -> RGBImage {
    let w = max(1, Int(quad.edgeWidth)), h = max(1, Int(quad.edgeHeight))
    guard page.width > 0, page.height > 0,
          let hmg = Homography(from: [Point(x: 0, y: 0), Point(x: Double(w), y: 0),
                                      Point(x: Double(w), y: Double(h)), Point(x: 0, y: Double(h))],
                               to: quad.points) else {
        return RGBImage(width: w, height: h)
    }
    var out = [UInt8](repeating: 0, count: w * h * 3)
    let pw = page.width, ph = page.height
    page.pixels.withUnsafeBufferPointer { src in
        out.withUnsafeMutableBufferPointer { dst in
            for v in 0..<h {
                for u in 0..<w {
                    let p = hmg.apply(Double(u), Double(v))
                    let x = min(max(p.x, 0), Double(pw - 1)), y = min(max(p.y, 0), Double(ph - 1))
                    let x0 = Int(x), y0 = Int(y)
                    let x1 = min(x0 + 1, pw - 1), y1 = min(y0 + 1, ph - 1)
                    let fx = x - Double(x0), fy = y - Double(y0)
                    let d = (v * w + u) * 3
                    for c in 0..<3 {
                        let a = Double(src[(y0 * pw + x0) * 3 + c]), b = Double(src[(y0 * pw + x1) * 3 + c])
                        let e = Double(src[(y1 * pw + x0) * 3 + c]), f = Double(src[(y1 * pw + x1) * 3 + c])
                        let value = (a * (1 - fx) + b * fx) * (1 - fy) + (e * (1 - fx) + f * fx) * fy
                        dst[d + c] = UInt8(min(255, max(0, value.rounded())))
                    }
                }
            }
        }
    }
    return RGBImage(uncheckedWidth: w, height: h, pixels: out)
}

/// A projective map of the plane given by four point correspondences.
struct Homography {
    private let m: [Double]  // 3×3 row-major, m[8] = 1

    /// Solves for the map taking `from[i]` to `to[i]` (four points each). Nil if degenerate.
    init?(from: [Point], to: [Point]) {
        guard from.count == 4, to.count == 4 else { return nil }
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y, u, v) = (from[i].x, from[i].y, to[i].x, to[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        guard let h = solveLinearSystem(a) else { return nil }
        m = h + [1]
    }

    func apply(_ x: Double, _ y: Double) -> Point {
        let w = m[6] * x + m[7] * y + m[8]
        guard w != 0 else { return Point(x: 0, y: 0) }
        return Point(x: (m[0] * x + m[1] * y + m[2]) / w, y: (m[3] * x + m[4] * y + m[5]) / w)
    }
}

/// Gaussian elimination with partial pivoting on an n×(n+1) augmented matrix. Nil if singular.
func solveLinearSystem(_ input: [[Double]]) -> [Double]? {
    var a = input
    let n = a.count
    for col in 0..<n {
        guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12 else {
            return nil
        }
        a.swapAt(col, pivot)
        for row in 0..<n where row != col {
            let f = a[row][col] / a[col][col]
            if f == 0 { continue }
            for k in col...n { a[row][k] -= f * a[col][k] }
        }
    }
    return (0..<n).map { a[$0][n] / a[$0][$0] }
}
