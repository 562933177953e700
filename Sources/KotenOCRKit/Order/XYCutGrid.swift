/// The coarse grid the XY-cut works on: boxes scaled so the shorter page side spans `grid`
/// bins, and the 0/1 occupancy table they cover (reference: docs/reference-pipelines.md §1.4 A).
struct XYCutGrid {
    /// Boxes in grid coordinates, same order as the input.
    let boxes: [PixelBox]
    let width: Int
    let height: Int
    /// Row-major occupancy, `height × width`, 1 where some box covers the bin.
    let cells: [UInt8]

    init(boxes input: [PixelBox]) {
        let grid = 100 * Double(input.count).squareRoot()
        // Make width and height non-negative.
        let fixed = input.map { b in
            PixelBox(x1: b.x1, y1: b.y1, x2: b.x1 < b.x2 ? b.x2 : b.x1, y2: b.y1 < b.y2 ? b.y2 : b.y1)
        }
        let xMin = fixed.map(\.x1).min() ?? 0
        let yMin = fixed.map(\.y1).min() ?? 0
        let wPage = (fixed.map(\.x2).max() ?? 0) - xMin
        let hPage = (fixed.map(\.y2).max() ?? 0) - yMin
        let xGrid = wPage < hPage ? grid : grid * (Double(wPage) / Double(hPage))
        let yGrid = hPage < wPage ? grid : grid * (Double(hPage) / Double(wPage))
        func scale(_ v: Int, _ origin: Int, _ bins: Double, _ extent: Int) -> Int {
            let q = PythonArithmetic.floorDivide(Double(v - origin) * bins, Double(extent))
            let cast = PythonArithmetic.castToInt64(q)
            return cast < 0 ? 0 : Int(cast)
        }
        let scaled = fixed.map { b in
            PixelBox(x1: scale(b.x1, xMin, xGrid, wPage), y1: scale(b.y1, yMin, yGrid, hPage),
                     x2: scale(b.x2, xMin, xGrid, wPage), y2: scale(b.y2, yMin, yGrid, hPage))
        }
        let width = (scaled.map(\.x2).max() ?? 0) + 1
        let height = (scaled.map(\.y2).max() ?? 0) + 1
        var cells = [UInt8](repeating: 0, count: width * height)
        for b in scaled where b.x1 < b.x2 {
            for y in b.y1..<max(b.y1, b.y2) {
                let row = y * width
                for x in b.x1..<b.x2 { cells[row + x] = 1 }
            }
        }
        self.boxes = scaled
        self.width = width
        self.height = height
        self.cells = cells
    }

    /// Column sums (`x_hist`) and row sums (`y_hist`) of the table inside a region.
    func histograms(x0: Int, y0: Int, x1: Int, y1: Int) -> (columns: [Int], rows: [Int]) {
        var columns = [Int](repeating: 0, count: max(0, x1 - x0))
        var rows = [Int](repeating: 0, count: max(0, y1 - y0))
        guard x0 < x1, y0 < y1 else { return (columns, rows) }
        cells.withUnsafeBufferPointer { table in
            columns.withUnsafeMutableBufferPointer { col in
                for y in y0..<y1 {
                    let row = y * width
                    var sum = 0
                    for x in x0..<x1 {
                        let v = Int(table[row + x])
                        sum += v
                        col[x - x0] += v
                    }
                    rows[y - y0] = sum
                }
            }
        }
        return (columns, rows)
    }
}
