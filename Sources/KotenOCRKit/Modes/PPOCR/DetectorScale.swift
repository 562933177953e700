import Foundation

/// The scales at which PP-OCR's DB detector reads a page, and the tiles of a pass that one run cannot hold.
///
/// A first pass fits the page's longer side to 960 (never enlarging it), as PaddleOCR does. When the text in
/// that map is too thin to be found whole — the median thickness of its line-like regions under
/// `thinLineSide` map pixels, as on a 2998×100 strip (1–2 px) or a 391×6060 page of short lines (2 px), while
/// a 150 dpi A4 page of 7.7 pt text still has 4 px — a second pass reads the whole page at the scale that
/// makes that median about `targetLineSide` (at most the page's own resolution), and its lines replace the
/// first pass's. A first map under `narrowMapSide` on its shorter side (a strip, a column cut from a scan) is
/// read again with that side at least twice as wide (at most the page's own resolution). A large page, reduced more
/// than 1 / `smallTextScale` in its first pass, whose lines were not clearly thick there (median under
/// `thickLineSide`, or none: 24 px text on a 6,000 px page is 4 map pixels, broken and merged lines whose thickness
/// says nothing), is read again at `smallTextScale`. With an explicit `--det-max-side`, the page is read once at
/// that size.
///
/// A map narrower than `narrowMapSide` is padded on its long sides by `narrowPadding` map pixels of the page's
/// own background (`paddedSides`): DB finds nothing, or fragments, in a column that fills its map's width (a 64 px
/// page of 32 px text), and the whole column with that much page around it.
///
/// Memory: a pass whose input would hold more values than `maxRunElements` — the larger of the store's
/// typical detector input and the page's own first pass, and never more than the memory budget affords now,
/// by the store's measured activations — is cut into overlapping tiles, each one run, their maps stitched into
/// the page's map before boxes are taken (so a line crossing a tile border is one region). Peak memory is
/// then the same as the first pass's, whatever the page; finer passes cost time, not memory.
enum DetectorScale {
    /// The first pass's longer side (PaddleOCR's default `limit_side_len`).
    static let firstPassSide = 960
    /// Median thickness (map pixels, before unclip) below which the text is too thin in a map.
    static let thinLineSide = 3.5
    /// The median thickness a finer pass aims for.
    static let targetLineSide = 8.0
    /// A map whose shorter side is under this is narrow (a strip): read again when nothing was found in it.
    static let narrowMapSide = 128
    /// Tiles overlap by this (map pixels); each tile's map is used up to the middle of the overlap.
    static let tileOverlap = 96
    /// Tiles are never smaller than this on a side (map pixels), whatever the budget.
    static let minTileSide = 256
    /// A large page's finer pass: text of 20–24 page pixels is 5–6 map pixels there, which DB finds whole.
    static let smallTextScale = 0.25
    /// Median thickness (map pixels) at which a large page's text is clearly found in its first pass.
    static let thickLineSide = 2 * targetLineSide
    /// Background added on each long side of a narrow map (map pixels, a multiple of 32).
    static let narrowPadding = 32

    /// Detector pixels per page pixel for a map whose longer side is at most `maxSide` (never above 1).
    static func fitted(width: Int, height: Int, maxSide: Int) -> Double {
        min(1.0, Double(maxSide) / Double(max(width, height, 1)))
    }

    /// The map size at `scale`: each side rounded to a multiple of 32, at least 32.
    static func mapSize(width: Int, height: Int, scale: Double) -> (width: Int, height: Int) {
        func round32(_ v: Double) -> Int { max(32, Int((v / 32).rounded()) * 32) }
        return (round32(Double(width) * scale), round32(Double(height) * scale))
    }

    /// The scale and reason of a second pass after a first at `first` whose map was `map` and whose line-like
    /// regions were `lineSides` thick; nil when the first pass's map was fine enough. A narrow map (a strip or
    /// a tall page, 7.5:1 or more) is read again with its shorter side at least twice `narrowMapSide`; a map
    /// whose text is thin, at the scale that makes it `targetLineSide` thick; a large page (`first` under
    /// `smallTextScale`) whose text was not clearly thick, at `smallTextScale`; the finest of these, at most the
    /// page's own resolution, and only when it is more than 1.25 × `first`.
    static func refinement(first: Double, map: (width: Int, height: Int), lineSides: [Double]) -> (scale: Double, reason: String)? {
        var wanted: [(scale: Double, reason: String)] = []
        let short = min(map.width, map.height)
        if short < narrowMapSide { wanted.append((first * Double(2 * narrowMapSide) / Double(short), "narrow page")) }
        let median = lineSides.isEmpty ? nil : lineSides.sorted()[lineSides.count / 2]
        if let median, median < thinLineSide { wanted.append((first * targetLineSide / max(median, 1), "thin lines")) }
        if first < smallTextScale && (median ?? 0) < thickLineSide { wanted.append((smallTextScale, "small text")) }
        guard let finest = wanted.max(by: { $0.scale < $1.scale }) else { return nil }
        let scale = min(1, finest.scale)  // never enlarged
        return scale > first * 1.25 ? (scale, finest.reason) : nil
    }

    /// Map pixels of background on each side of a `width` × `height` map: `narrowPadding` left and right of a
    /// map narrower than `narrowMapSide`, above and below one lower than it.
    static func paddedSides(width: Int, height: Int) -> (x: Int, y: Int) {
        (width < narrowMapSide ? narrowPadding : 0, height < narrowMapSide ? narrowPadding : 0)
    }

    /// The tiles of a `width` × `height` map when one run may take at most `maxElements` input values
    /// (3 per pixel): the whole map when it fits, else a grid of equal tiles (sides multiples of 32, at least
    /// `minTileSide`) overlapping by at least `tileOverlap`, spread evenly from edge to edge.
    static func tiles(width: Int, height: Int, maxElements: Int) -> [MapTile] {
        let whole = MapTile(x: 0, y: 0, width: width, height: height, core: (0, 0, width, height))
        guard 3 * width * height > maxElements else { return [whole] }
        let pixels = max(minTileSide * minTileSide, maxElements / 3)
        func floor32(_ v: Int) -> Int { max(minTileSide, v / 32 * 32) }
        var tw: Int, th: Int
        if width <= height {
            tw = min(width, floor32(Int(Double(pixels).squareRoot())))
            th = min(height, floor32(pixels / tw))
        } else {
            th = min(height, floor32(Int(Double(pixels).squareRoot())))
            tw = min(width, floor32(pixels / th))
        }
        let xs = starts(extent: width, tile: tw), ys = starts(extent: height, tile: th)
        let xCores = cores(xs, tile: tw, extent: width), yCores = cores(ys, tile: th, extent: height)
        return ys.indices.flatMap { j in
            xs.indices.map { i in
                MapTile(x: xs[i], y: ys[j], width: tw, height: th,
                        core: (xCores[i].lowerBound, yCores[j].lowerBound, xCores[i].upperBound, yCores[j].upperBound))
            }
        }
    }

    /// Tile starts along one side: as few tiles as overlap by `tileOverlap`, first at 0, last at the end.
    private static func starts(extent: Int, tile: Int) -> [Int] {
        guard extent > tile else { return [0] }
        let step = max(1, tile - tileOverlap)
        let n = 1 + (extent - tile + step - 1) / step
        return (0..<n).map { (extent - tile) * $0 / (n - 1) }
    }

    /// The part of each tile its map is taken from: up to the middle of its overlap with each neighbour.
    private static func cores(_ starts: [Int], tile: Int, extent: Int) -> [Range<Int>] {
        starts.indices.map { i in
            let lower = i == 0 ? 0 : (starts[i - 1] + tile + starts[i]) / 2
            let upper = i == starts.count - 1 ? extent : (starts[i] + tile + starts[i + 1]) / 2
            return lower..<upper
        }
    }
}

/// A rectangle of a detector map (map pixels) read as one run, and the part of it (`core`: x0, y0, x1, y1,
/// end exclusive) whose probabilities go into the page's map.
struct MapTile: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var core: (x0: Int, y0: Int, x1: Int, y1: Int)

    static func == (a: MapTile, b: MapTile) -> Bool {
        a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height && a.core == b.core
    }
}
