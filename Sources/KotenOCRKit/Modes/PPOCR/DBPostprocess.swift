import Foundation

/// Turns PP-OCR's DB text-probability map into line quadrilaterals (docs/reference-pipelines.md §4, "Step 1"):
/// binarise at `binaryThreshold`; each 8-connected region becomes its minimum-area rectangle; drop it if its
/// shorter side is under `minSide` or the mean probability inside it is under `boxThreshold`; grow it by the
/// unclip offset (area × `unclipRatio` / perimeter); drop it if its shorter side is then under `minSide` + 2.
/// Coordinates stay in map pixels.
public struct DBPostprocess: Sendable {
    public var binaryThreshold: Float = 0.3
    public var boxThreshold: Float = 0.6
    public var unclipRatio: Double = 1.5
    public var minSide: Double = 3
    public var maxCandidates = 1000

    public init() {}

    /// `map` is [height × width] probabilities, row-major. Returns rectangles with their mean probability.
    public func boxes(map: [Float], width: Int, height: Int) -> [(rect: RotatedRect, score: Float)] {
        guard map.count == width * height else { return [] }
        let mask = map.map { $0 > binaryThreshold }
        var result: [(RotatedRect, Float)] = []
        for region in connectedRegions(mask: mask, width: width, height: height).prefix(maxCandidates) {
            let rect = RotatedRect(enclosing: region.outlinePoints)
            guard rect.shortSide >= minSide else { continue }
            let score = meanProbability(map: map, width: width, height: height, polygon: rect.quad.points)
            guard score >= boxThreshold else { continue }
            let quad = rect.quad.points
            let perimeter = polygonPerimeter(quad)
            guard perimeter > 0 else { continue }
            let grown = rect.expanded(by: polygonArea(quad) * unclipRatio / perimeter)
            guard grown.shortSide >= minSide + 2 else { continue }
            result.append((grown, score))
        }
        return result
    }

    /// Mean of the map over the pixels whose centres fall inside `polygon` (within its bounding box).
    func meanProbability(map: [Float], width: Int, height: Int, polygon: [Point]) -> Float {
        let xs = polygon.map(\.x), ys = polygon.map(\.y)
        let x0 = max(0, min(width - 1, Int((xs.min() ?? 0).rounded(.down))))
        let x1 = max(0, min(width - 1, Int((xs.max() ?? 0).rounded(.up))))
        let y0 = max(0, min(height - 1, Int((ys.min() ?? 0).rounded(.down))))
        let y1 = max(0, min(height - 1, Int((ys.max() ?? 0).rounded(.up))))
        var sum: Double = 0
        var n = 0
        for y in y0...y1 {
            for x in x0...x1 where polygonContains(polygon, Point(x: Double(x), y: Double(y))) {
                sum += Double(map[y * width + x])
                n += 1
            }
        }
        if n == 0 {
            // A sliver thinner than a pixel: take the nearest pixel.
            let cx = min(width - 1, max(0, Int((xs.reduce(0, +) / 4).rounded())))
            let cy = min(height - 1, max(0, Int((ys.reduce(0, +) / 4).rounded())))
            return map[cy * width + cx]
        }
        return Float(sum / Double(n))
    }
}
