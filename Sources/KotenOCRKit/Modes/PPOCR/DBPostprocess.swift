import Foundation

/// A DB text-probability map, row-major, `width` × `height`: the model's own float output, or a map stitched
/// from tiles and kept at 8 bits per pixel (`TiledProbabilityMap`).
protocol ProbabilityMap {
    var width: Int { get }
    var height: Int { get }
    /// The probability (0–1) at `index` = y × width + x.
    func probability(at index: Int) -> Float
}

/// The model's output as it came: float32 probabilities.
struct FloatProbabilityMap: ProbabilityMap {
    let values: [Float]
    let width: Int
    let height: Int
    func probability(at index: Int) -> Float { values[index] }
}

/// Turns PP-OCR's DB text-probability map into line quadrilaterals (docs/reference-pipelines.md §4, "Step 1"):
/// binarise at `binaryThreshold`; each 8-connected region becomes its minimum-area rectangle; drop it if its
/// shorter side is under `minSide` or the mean probability inside it is under `boxThreshold`; grow it by the
/// unclip offset (area × `unclipRatio` / perimeter); drop it if its shorter side is then under `minSide` + 2.
/// Coordinates stay in map pixels.
package struct DBPostprocess: Sendable {
    public var binaryThreshold: Float = 0.3
    public var boxThreshold: Float = 0.6
    public var unclipRatio: Double = 1.5
    public var minSide: Double = 3
    public var maxCandidates = 1000
    /// A region is line-like, and counts in `Analysis.lineSides`, when its rectangle's longer side is at least
    /// this (map pixels): dots and specks tell nothing about the size of the text.
    static let lineLikeLength: Double = 8

    public init() {}

    /// The boxes of a map, and the size of its text.
    struct Analysis {
        /// Grown rectangles with their mean probability, in map pixels.
        var boxes: [(rect: RotatedRect, score: Float)]
        /// The shorter side (map pixels, before growing) of every line-like region, kept or not: the text's
        /// thickness in this map, which says whether the map is fine enough (`DetectorScale`).
        var lineSides: [Double]
    }

    /// `map` is [height × width] probabilities, row-major. Returns rectangles with their mean probability.
    public func boxes(map: [Float], width: Int, height: Int) -> [(rect: RotatedRect, score: Float)] {
        guard map.count == width * height else { return [] }
        return analyse(FloatProbabilityMap(values: map, width: width, height: height)).boxes
    }

    func analyse<Map: ProbabilityMap>(_ map: Map) -> Analysis {
        let threshold = binaryThreshold
        var result = Analysis(boxes: [], lineSides: [])
        let regions = connectedRegions(width: map.width, height: map.height) { map.probability(at: $0) > threshold }
        for region in regions.prefix(maxCandidates) {
            let rect = RotatedRect(enclosing: region.outlinePoints)
            if max(rect.width, rect.height) >= Self.lineLikeLength { result.lineSides.append(rect.shortSide) }
            guard rect.shortSide >= minSide else { continue }
            let score = meanProbability(map, polygon: rect.quad.points)
            guard score >= boxThreshold else { continue }
            let quad = rect.quad.points
            let perimeter = polygonPerimeter(quad)
            guard perimeter > 0 else { continue }
            let grown = rect.expanded(by: polygonArea(quad) * unclipRatio / perimeter)
            guard grown.shortSide >= minSide + 2 else { continue }
            result.boxes.append((grown, score))
        }
        return result
    }

    /// Mean of the map over the pixels whose centres fall inside `polygon` (within its bounding box).
    func meanProbability<Map: ProbabilityMap>(_ map: Map, polygon: [Point]) -> Float {
        let width = map.width, height = map.height
        let xs = polygon.map(\.x), ys = polygon.map(\.y)
        let x0 = max(0, min(width - 1, Int((xs.min() ?? 0).rounded(.down))))
        let x1 = max(0, min(width - 1, Int((xs.max() ?? 0).rounded(.up))))
        let y0 = max(0, min(height - 1, Int((ys.min() ?? 0).rounded(.down))))
        let y1 = max(0, min(height - 1, Int((ys.max() ?? 0).rounded(.up))))
        var sum: Double = 0
        var n = 0
        for y in y0...y1 {
            for x in x0...x1 where polygonContains(polygon, Point(x: Double(x), y: Double(y))) {
                sum += Double(map.probability(at: y * width + x))
                n += 1
            }
        }
        if n == 0 {
            // A sliver thinner than a pixel: take the nearest pixel.
            let cx = min(width - 1, max(0, Int((xs.reduce(0, +) / 4).rounded())))
            let cy = min(height - 1, max(0, Int((ys.reduce(0, +) / 4).rounded())))
            return map.probability(at: cy * width + cx)
        }
        return Float(sum / Double(n))
    }
}
