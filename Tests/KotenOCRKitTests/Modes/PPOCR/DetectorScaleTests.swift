import Foundation
import Testing
@testable import KotenOCRKit

@Suite("Detector scale: a finer pass where the text is thin or the page narrow; tiles within a bound")
struct DetectorScaleTests {
    @Test("an ordinary page is read once at 960; text 4 px thick in its map is thick enough")
    func ordinaryPage() {
        #expect(DetectorScale.refinement(first: 0.686, map: (672, 960), lineSides: [7, 7, 7, 8]) == nil)
        #expect(DetectorScale.refinement(first: 0.547, map: (672, 960), lineSides: [3, 4, 4, 4, 4]) == nil)
        #expect(DetectorScale.refinement(first: 0.686, map: (672, 960), lineSides: []) == nil, "a blank page costs one pass")
    }

    @Test("thin text: the finer pass makes its median about 8 px, never above the page's own resolution")
    func thinText() throws {
        // A tall page: narrow (0.1 × 256 / 96 ≈ 0.27) and thin (0.1 × 8 / 2 = 0.4): the finer of the two.
        let r = try #require(DetectorScale.refinement(first: 0.1, map: (96, 960), lineSides: [2, 2, 2, 11, 11]))
        #expect(r.reason == "thin lines" && abs(r.scale - 0.4) < 1e-9)
        let wide = try #require(DetectorScale.refinement(first: 0.4, map: (960, 640), lineSides: [1, 2, 2, 3, 9]))
        #expect(wide.reason == "thin lines" && abs(wide.scale - 1.0) < 1e-9)  // 0.4 × 8 / 2 = 1.6, capped at 1
        #expect(DetectorScale.refinement(first: 1, map: (640, 320), lineSides: [1, 1, 1]) == nil, "never enlarged")
    }

    @Test("a narrow map (a strip) is read again even when nothing in it looked like a line")
    func narrowPage() throws {
        let r = try #require(DetectorScale.refinement(first: 0.32, map: (960, 32), lineSides: [0, 6, 6.5]))
        #expect(r.reason == "narrow page" && r.scale == 1)
        #expect(DetectorScale.refinement(first: 0.32, map: (960, 32), lineSides: [])?.scale == 1)
    }

    @Test("a map that fits one run is one tile; a larger one is covered by overlapping tiles within the bound",
          arguments: [(992, 1408, 2_119_680), (416, 6016, 2_119_680), (3008, 96, 200_000), (4032, 3008, 2_119_680)])
    func tiles(width: Int, height: Int, maxElements: Int) {
        let tiles = DetectorScale.tiles(width: width, height: height, maxElements: maxElements)
        if 3 * width * height <= maxElements {
            #expect(tiles.count == 1)
            return
        }
        #expect(tiles.count > 1)
        var covered = [Int](repeating: 0, count: width * height)
        for t in tiles {
            #expect(t.width % 32 == 0 && t.height % 32 == 0, "model input sides are multiples of 32")
            #expect(3 * t.width * t.height <= max(maxElements, 3 * DetectorScale.minTileSide * DetectorScale.minTileSide))
            #expect(t.x >= 0 && t.y >= 0 && t.x + t.width <= width && t.y + t.height <= height)
            #expect(t.core.x0 >= t.x && t.core.x1 <= t.x + t.width && t.core.y0 >= t.y && t.core.y1 <= t.y + t.height)
            for y in t.core.y0..<t.core.y1 { for x in t.core.x0..<t.core.x1 { covered[y * width + x] += 1 } }
        }
        #expect(covered.allSatisfy { $0 == 1 }, "every map pixel comes from exactly one tile's core")
        // Neighbouring tiles overlap by at least the overlap, so a core never reaches a tile's own edge inside the map.
        for t in tiles {
            if t.core.x0 > 0 { #expect(t.core.x0 - t.x >= DetectorScale.tileOverlap / 2 - 1) }
            if t.core.x1 < width { #expect(t.x + t.width - t.core.x1 >= DetectorScale.tileOverlap / 2 - 1) }
        }
    }
}
