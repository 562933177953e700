/// One 8-connected region of set pixels in a binary mask: for each row it touches, the leftmost and
/// rightmost pixel (enough for the region's convex hull), and its pixel count.
struct ConnectedRegion: Sendable {
    /// (y, minX, maxX) per row, top to bottom.
    var rows: [(y: Int, minX: Int, maxX: Int)]
    var pixelCount: Int

    /// Pixel centres on the region's outline (row extremes), for hulls and rectangles.
    var outlinePoints: [Point] {
        rows.flatMap { r in [Point(x: Double(r.minX), y: Double(r.y)), Point(x: Double(r.maxX), y: Double(r.y))] }
    }
}

/// Labels the 8-connected regions of `mask` (row-major, `width` × `height`, true = set), in the order
/// their first pixel appears scanning rows top to bottom. Memory: one Int32 label per pixel.
func connectedRegions(mask: [Bool], width: Int, height: Int) -> [ConnectedRegion] {
    guard width > 0, height > 0, mask.count == width * height else { return [] }
    var labels = [Int32](repeating: -1, count: mask.count)
    var regions: [ConnectedRegion] = []
    var stack: [Int] = []
    for start in 0..<mask.count where mask[start] && labels[start] < 0 {
        let label = Int32(regions.count)
        var extremes: [Int: (Int, Int)] = [:]
        var count = 0
        labels[start] = label
        stack.append(start)
        while let index = stack.popLast() {
            let y = index / width, x = index % width
            count += 1
            if let e = extremes[y] { extremes[y] = (min(e.0, x), max(e.1, x)) } else { extremes[y] = (x, x) }
            for dy in -1...1 {
                let ny = y + dy
                guard ny >= 0, ny < height else { continue }
                for dx in -1...1 where dx != 0 || dy != 0 {
                    let nx = x + dx
                    guard nx >= 0, nx < width else { continue }
                    let n = ny * width + nx
                    if mask[n] && labels[n] < 0 {
                        labels[n] = label
                        stack.append(n)
                    }
                }
            }
        }
        let rows = extremes.keys.sorted().compactMap { y in extremes[y].map { (y: y, minX: $0.0, maxX: $0.1) } }
        regions.append(ConnectedRegion(rows: rows, pixelCount: count))
    }
    return regions
}
