import Foundation
import Testing
@testable import KotenOCRKit

@Suite("Geometry after the detector")
struct GeometryTests {
    @Test("minimum-area rectangle of a rotated rectangle's pixels recovers its sides and angle")
    func minAreaRect() {
        let truth = RotatedRect(center: Point(x: 100, y: 80), width: 120, height: 30, angle: 0.3)
        let c = truth.corners
        // Points along the outline.
        var pts: [Point] = []
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            for t in stride(from: 0.0, through: 1.0, by: 0.05) { pts.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)) }
        }
        let r = RotatedRect(enclosing: pts)
        #expect(abs(max(r.width, r.height) - 120) < 0.01)
        #expect(abs(r.shortSide - 30) < 0.01)
        #expect(abs(r.center.x - 100) < 0.01 && abs(r.center.y - 80) < 0.01)
    }

    @Test("quad corners are ordered top-left, top-right, bottom-right, bottom-left")
    func quadOrder() {
        let q = RotatedRect(center: Point(x: 50, y: 20), width: 80, height: 10, angle: 0).quad
        #expect(q.points[0] == Point(x: 10, y: 15))
        #expect(q.points[1] == Point(x: 90, y: 15))
        #expect(q.points[2] == Point(x: 90, y: 25))
        #expect(q.points[3] == Point(x: 10, y: 25))
    }

    @Test("quad corners in the rectangle's own frame whatever its rotation: a skewed tall column starts at its top-left",
          arguments: [-5.0, -2.0, 0.0, 2.0, 5.0])
    func skewedColumnQuad(degrees: Double) {
        // A 40×1400 column turned by `degrees` (counter-clockwise on the page, y down): its top is shifted by
        // 1400 × sin(2°) ≈ 49 px, more than its width, so sorting corners by x mixes top and bottom.
        let tilt = -degrees * .pi / 180
        let c = Point(x: 300, y: 800)
        // The same rectangle however its angle is stated: the long side along `angle` or across it, either way round.
        let forms = [RotatedRect(center: c, width: 1400, height: 40, angle: .pi / 2 + tilt),
                     RotatedRect(center: c, width: 1400, height: 40, angle: -.pi / 2 + tilt),
                     RotatedRect(center: c, width: 40, height: 1400, angle: tilt),
                     RotatedRect(center: c, width: 40, height: 1400, angle: .pi + tilt)]
        for rect in forms {
            let q = rect.quad
            #expect(abs(q.edgeWidth - 40) < 1e-6 && abs(q.edgeHeight - 1400) < 1e-6, "\(rect)")
            #expect(LineOrientation(width: q.edgeWidth, height: q.edgeHeight) == .vertical)
            let (tl, tr, br, bl) = (q.points[0], q.points[1], q.points[2], q.points[3])
            #expect(tl.y < bl.y - 1000 && tr.y < br.y - 1000, "top corners first: \(q.points)")
            #expect(tl.x < tr.x && bl.x < br.x, "left before right: \(q.points)")
            let expectedTopLeft = Point(x: c.x - 20 * cos(tilt) + 700 * sin(tilt), y: c.y - 20 * sin(tilt) - 700 * cos(tilt))
            #expect(tl.distance(to: expectedTopLeft) < 1e-6, "\(tl) vs \(expectedTopLeft)")
        }
    }

    @Test("a horizontal line's quad is the same whichever way its angle points")
    func horizontalQuadEitherWay() {
        let a = RotatedRect(center: Point(x: 50, y: 20), width: 80, height: 10, angle: 0.03).quad
        let b = RotatedRect(center: Point(x: 50, y: 20), width: 80, height: 10, angle: .pi + 0.03).quad
        for (p, q) in zip(a.points, b.points) { #expect(p.distance(to: q) < 1e-9) }
    }

    @Test("unclip grows each side by area × ratio / perimeter")
    func unclip() {
        // A 100×10 box: area 1000, perimeter 220, offset 1000 × 1.5 / 220 ≈ 6.82 on each side.
        var mask = [Bool](repeating: false, count: 200 * 50)
        for y in 20..<31 { for x in 50..<151 { mask[y * 200 + x] = true } }
        let map = mask.map { $0 ? Float(0.9) : 0 }
        let boxes = DBPostprocess().boxes(map: map, width: 200, height: 50)
        try? #require(boxes.count == 1)
        guard let box = boxes.first else { return }
        let d = 1000.0 * 1.5 / 220.0
        #expect(abs(max(box.rect.width, box.rect.height) - (100 + 2 * d)) < 0.01)
        #expect(abs(box.rect.shortSide - (10 + 2 * d)) < 0.01)
        #expect(abs(box.score - 0.9) < 1e-5)
    }

    @Test("regions below the box threshold or thinner than 3 px are dropped")
    func thresholds() {
        var map = [Float](repeating: 0, count: 100 * 40)
        for y in 5..<15 { for x in 10..<60 { map[y * 100 + x] = 0.5 } }  // mean 0.5 < 0.6
        for y in 25..<27 { for x in 10..<60 { map[y * 100 + x] = 0.95 } } // 2 px thick
        #expect(DBPostprocess().boxes(map: map, width: 100, height: 40).isEmpty)
    }

    @Test("8-connected regions: diagonal neighbours join, separate blobs do not")
    func regions() {
        // (0,0) and (1,1) touch diagonally; (4,4) is alone.
        var mask = [Bool](repeating: false, count: 36)
        mask[0] = true; mask[7] = true; mask[28] = true
        let r = connectedRegions(mask: mask, width: 6, height: 6)
        #expect(r.map(\.pixelCount) == [2, 1])
    }

    @Test("regions from runs equal a pixel flood fill's: same regions, rows, counts, order", arguments: [1, 2, 3, 4])
    func regionsEqualFloodFill(seed: UInt64) {
        // Random masks of growing density, from scattered specks to one tangle of long "lines".
        var rng = SplitMix64(seed: seed)
        let w = 97, h = 61
        let mask = (0..<(w * h)).map { _ in rng.next() % 100 < 20 * seed }
        let runs = connectedRegions(mask: mask, width: w, height: h)
        let flood = Self.floodFill(mask, width: w, height: h)
        #expect(runs.count == flood.count)
        for (a, b) in zip(runs, flood) {
            #expect(a.pixelCount == b.pixelCount)
            #expect(a.rows.map { [$0.y, $0.minX, $0.maxX] } == b.rows.map { [$0.y, $0.minX, $0.maxX] })
        }
    }

    /// The straightforward 8-connected labelling by flood fill, regions in the order of their first pixel.
    static func floodFill(_ mask: [Bool], width: Int, height: Int) -> [ConnectedRegion] {
        var seen = [Bool](repeating: false, count: mask.count)
        var regions: [ConnectedRegion] = []
        for start in mask.indices where mask[start] && !seen[start] {
            var stack = [start], rows: [Int: (Int, Int)] = [:], count = 0
            seen[start] = true
            while let i = stack.popLast() {
                let y = i / width, x = i % width
                count += 1
                rows[y] = rows[y].map { (min($0.0, x), max($0.1, x)) } ?? (x, x)
                for dy in -1...1 { for dx in -1...1 {
                    let nx = x + dx, ny = y + dy
                    guard nx >= 0, nx < width, ny >= 0, ny < height else { continue }
                    let n = ny * width + nx
                    if mask[n] && !seen[n] { seen[n] = true; stack.append(n) }
                } }
            }
            let ordered = rows.keys.sorted().compactMap { y in rows[y].map { (y: y, minX: $0.0, maxX: $0.1) } }
            regions.append(ConnectedRegion(rows: ordered, pixelCount: count))
        }
        return regions
    }

    @Test("perspective crop of an axis-aligned quad equals a plain crop")
    func perspectiveIdentity() {
        var page = RGBImage(width: 30, height: 20)
        for i in 0..<page.pixels.count { page.pixels[i] = UInt8(i % 251) }
        let quad = Quad(Point(x: 5, y: 4), Point(x: 25, y: 4), Point(x: 25, y: 14), Point(x: 5, y: 14))
        let warped = perspectiveCrop(page, quad: quad)
        #expect(warped.width == 20 && warped.height == 10)
        #expect(warped == page.cropped(x: 5, y: 4, width: 20, height: 10))
    }

    @Test("rotating counter-clockwise moves the top-right pixel to the top-left")
    func rotation() throws {
        var img = RGBImage(width: 3, height: 2)
        img.pixels[(0 * 3 + 2) * 3] = 200  // top-right
        let r = img.rotatedCounterClockwise()
        #expect(r.width == 2 && r.height == 3)
        #expect(r.pixels[0] == 200)
    }
}
