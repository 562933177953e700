import Foundation

/// Which container every NDL line belongs to, and which text blocks nest in others
/// (reference: docs/reference-pipelines.md §1.3; parity README N3, N4, N5; NDL `ndl_parser.py`
/// `get_relationship_rect`, `refine_tb_relationship`).
struct NDLLayoutRelations {
    /// A member of a container: class index and position within that class's detections.
    /// A member of class 0 is a nested, line-less text block (position = polygon index).
    struct Member: Equatable {
        let classIndex: Int
        let index: Int
    }

    /// Text block rectangles, in score order, without the tiny ones (w < 5 and h < 5).
    let polygons: [PixelBox]
    /// Members of each polygon; nil once the block was merged into another.
    var textBlocks: [[Member]?]
    var adBlocks: [[Member]]
    var tableBlocks: [[Member]]
    var independent: [Member] = []

    init(byClass res: [[NDLDetection]], scoreThreshold: Double) {
        polygons = res[NDLClass.textBlock].map(\.box).filter { !($0.width < 5 && $0.height < 5) }
        textBlocks = Array(repeating: [], count: polygons.count)
        adBlocks = Array(repeating: [], count: res[NDLClass.blockAd].count)
        tableBlocks = Array(repeating: [], count: res[NDLClass.blockTable].count)
        for c in NDLClass.all.indices where NDLClass.all[c].isLine {
            for (j, line) in res[c].enumerated() where !(Double(line.confidence) < scoreThreshold) {
                let member = Member(classIndex: c, index: j)
                let cx = PythonArithmetic.floorDivide(line.box.x1 + line.box.x2, 2)
                let cy = PythonArithmetic.floorDivide(line.box.y1 + line.box.y2, 2)
                func holds(_ b: PixelBox) -> Bool { b.x1 <= cx && cx <= b.x2 && b.y1 <= cy && cy <= b.y2 }
                if let i = polygons.firstIndex(where: holds) {
                    textBlocks[i]?.append(member)
                } else if let i = res[NDLClass.blockAd].firstIndex(where: { holds($0.box) }) {
                    adBlocks[i].append(member)
                } else if let i = res[NDLClass.blockTable].firstIndex(where: { holds($0.box) }) {
                    tableBlocks[i].append(member)
                } else {
                    independent.append(member)
                }
            }
        }
        nestTextBlocks()
    }

    /// Block c moves into the first other block p whose rectangle is within 50 px of every
    /// corner of c; a block left with only merged line-less blocks counts as empty.
    private mutating func nestTextBlocks() {
        for c in polygons.indices where textBlocks[c] != nil {
            for p in polygons.indices where p != c && textBlocks[p] != nil {
                let corners = Self.corners(polygons[c])
                guard corners.allSatisfy({ !Self.isFarOutside($0, polygons[p], margin: 50) }) else { continue }
                let moved = textBlocks[c] ?? []
                textBlocks[p]?.append(contentsOf: moved.isEmpty ? [Member(classIndex: NDLClass.textBlock, index: c)] : moved)
                textBlocks[c] = nil
                break
            }
        }
        for i in textBlocks.indices {
            if let members = textBlocks[i], members.allSatisfy({ $0.classIndex == NDLClass.textBlock }) {
                textBlocks[i] = []
            }
        }
    }

    /// The rectangle polygon (xmin,ymin), (xmin,ymax), (xmax,ymax), (xmax,ymin) (N3).
    static func corners(_ b: PixelBox) -> [(Int, Int)] {
        [(b.x1, b.y1), (b.x1, b.y2), (b.x2, b.y2), (b.x2, b.y1)]
    }

    /// The reference's signed point-to-polygon distance is below −margin: the point lies outside
    /// the closed rectangle farther than `margin` from its nearest edge.
    private static func isFarOutside(_ p: (Int, Int), _ rect: PixelBox, margin: Double) -> Bool {
        let inside = rect.x1 <= p.0 && p.0 <= rect.x2 && rect.y1 <= p.1 && p.1 <= rect.y2
        if inside { return false }
        let poly = corners(rect)
        var minDistance = Double.infinity
        for k in 0..<4 {
            let a = poly[k], b = poly[(k + 1) % 4]
            minDistance = min(minDistance, segmentDistance(p, a, b))
        }
        return -minDistance < -margin
    }

    /// Distance from a point to a segment, computed as the reference does (projection clamped
    /// to the segment, then `hypot`).
    private static func segmentDistance(_ p: (Int, Int), _ a: (Int, Int), _ b: (Int, Int)) -> Double {
        let lengthSquare = (b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)
        if lengthSquare == 0 { return hypot(Double(p.0 - a.0), Double(p.1 - a.1)) }
        var t = Double((p.0 - a.0) * (b.0 - a.0) + (p.1 - a.1) * (b.1 - a.1)) / Double(lengthSquare)
        t = max(0, min(1, t))
        let px = Double(a.0) + t * Double(b.0 - a.0)
        let py = Double(a.1) + t * Double(b.1 - a.1)
        return hypot(Double(p.0) - px, Double(p.1) - py)
    }
}
