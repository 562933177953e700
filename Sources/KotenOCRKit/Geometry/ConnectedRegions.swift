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
/// their first pixel appears scanning rows top to bottom.
func connectedRegions(mask: [Bool], width: Int, height: Int) -> [ConnectedRegion] {
    guard mask.count == width * height else { return [] }
    return connectedRegions(width: width, height: height) { mask[$0] }
}

/// Labels the 8-connected regions of the pixels for which `isSet(y * width + x)` holds, in the order their
/// first pixel appears scanning rows top to bottom. Works on runs of set pixels (union-find over the runs
/// of two consecutive rows): memory grows with the number of runs, never with the number of pixels, so a
/// page-sized map needs no label image.
func connectedRegions(width: Int, height: Int, isSet: (Int) -> Bool) -> [ConnectedRegion] {
    guard width > 0, height > 0 else { return [] }
    var runs: [(y: Int, x0: Int, x1: Int)] = []
    var parent: [Int] = []
    func root(_ i: Int) -> Int {
        var i = i
        while parent[i] != i {
            parent[i] = parent[parent[i]]
            i = parent[i]
        }
        return i
    }
    var previousRow = 0..<0  // indices into `runs` of the row above
    for y in 0..<height {
        let rowStart = runs.count
        var x = 0
        let base = y * width
        while x < width {
            guard isSet(base + x) else { x += 1; continue }
            let start = x
            while x < width && isSet(base + x) { x += 1 }
            let index = runs.count
            runs.append((y, start, x - 1))
            parent.append(index)
            // 8-connected: a run above touches this one if their spans meet or are diagonal neighbours.
            for above in previousRow where runs[above].x0 <= x && runs[above].x1 >= start - 1 {
                let a = root(above), b = root(index)
                if a != b { parent[max(a, b)] = min(a, b) }  // the earlier run stays the root
            }
        }
        previousRow = rowStart..<runs.count
    }
    // Group runs by root; the root is each region's first run in raster order, so roots sort the regions.
    var slot: [Int: Int] = [:]
    var regions: [(first: Int, rows: [Int: (Int, Int)], count: Int)] = []
    for (i, run) in runs.enumerated() {
        let r = root(i)
        let k: Int
        if let s = slot[r] { k = s } else { k = regions.count; slot[r] = k; regions.append((r, [:], 0)) }
        if let e = regions[k].rows[run.y] {
            regions[k].rows[run.y] = (min(e.0, run.x0), max(e.1, run.x1))
        } else {
            regions[k].rows[run.y] = (run.x0, run.x1)
        }
        regions[k].count += run.x1 - run.x0 + 1
    }
    return regions.sorted { $0.first < $1.first }.map { region in
        let rows = region.rows.keys.sorted().compactMap { y in region.rows[y].map { (y: y, minX: $0.0, maxX: $0.1) } }
        return ConnectedRegion(rows: rows, pixelCount: region.count)
    }
}
