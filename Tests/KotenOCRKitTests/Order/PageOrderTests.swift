import Foundation
import Testing
@testable import KotenOCRKit

/// The `page` reading order's parts on hand-made geometry (no models): the leaf sort by writing direction, the
/// XY-cut tie-break, the skew estimate and the frame it defines.
@Suite struct PageOrderTests {
    /// Seven lines of one horizontal paragraph as a page turned by 0.8° gives them: each box is a little taller
    /// than its line and touches the next, the first line indented. Sorted by left edge (NDL's leaf sort) they
    /// come out L1, L6, L4, ... (the two-page spread of issue 11).
    static let skewedParagraph: [PixelBox] = (0..<7).map { i in
        let indent = i == 0 ? 40 : [0, 3, 1, 4, 2, 5][i - 1]
        return PixelBox(x1: 400 + indent, y1: 250 + 43 * i, x2: 1000 - (i == 6 ? 280 : 0), y2: 250 + 43 * i + 52)
    }

    @Test("a skewed paragraph whose boxes touch reads top to bottom in the page order, by left edge in NDL's")
    func skewedParagraphOrder() {
        let boxes = Self.skewedParagraph
        #expect(XYCut.readingRanks(of: boxes, leafOrder: .byOrientation) == Array(0..<7))
        #expect(XYCut.readingRanks(of: boxes) != Array(0..<7), "NDL's leaf sort no longer differs: the test proves nothing")
    }

    @Test("a block of vertical lines reads right to left, each column top to bottom, split columns kept together")
    func verticalBlock() {
        // Three columns; the middle one detected in two pieces, the lower piece given first.
        let boxes = [PixelBox(x1: 100, y1: 0, x2: 140, y2: 600), PixelBox(x1: 201, y1: 330, x2: 240, y2: 600),
                     PixelBox(x1: 300, y1: 0, x2: 340, y2: 600), PixelBox(x1: 200, y1: 0, x2: 241, y2: 300)]
        #expect(BlockLineOrder.sorted([0, 1, 2, 3], boxes: boxes) == [2, 3, 1, 0])
    }

    @Test("a block of horizontal lines reads by rows; a row split at a gap reads left to right even when its right piece sits higher")
    func horizontalRows() {
        let boxes = [PixelBox(x1: 500, y1: 98, x2: 900, y2: 130), PixelBox(x1: 100, y1: 100, x2: 420, y2: 132),
                     PixelBox(x1: 100, y1: 150, x2: 900, y2: 182)]
        #expect(BlockLineOrder.sorted([0, 1, 2], boxes: boxes) == [1, 0, 2])
    }

    @Test("heading, vertical columns and caption: the page order cuts below the heading first; NDL's cuts beside it")
    func headingAboveColumns() {
        // A horizontal heading top left, eight columns on the right, a caption bottom left; the gap beside the
        // heading is as wide as the gap below it (the corpus page heading_columns_caption).
        var boxes = [PixelBox(x1: 77, y1: 76, x2: 478, y2: 125)]
        boxes += (0..<6).map { PixelBox(x1: 886 - 54 * $0, y1: 185, x2: 923 - 54 * $0, y2: 1212) }
        boxes.append(PixelBox(x1: 80, y1: 1276, x2: 540, y2: 1305))
        let page = XYCut.readingRanks(of: boxes, leafOrder: .byOrientation)
        #expect(page == Array(0..<8))
        #expect(XYCut.readingRanks(of: boxes)[0] != 0, "NDL's order reads the heading first too: the tie-break is untested")
    }

    @Test("two horizontal columns under a title still read column by column (the gutter wins over aligned line gaps)")
    func twoColumns() {
        var boxes = [PixelBox(x1: 300, y1: 70, x2: 700, y2: 110)]
        for column in 0..<2 {
            boxes += (0..<5).map { PixelBox(x1: 70 + 460 * column, y1: 180 + 44 * $0, x2: 470 + 460 * column, y2: 206 + 44 * $0) }
        }
        #expect(XYCut.readingRanks(of: boxes, leafOrder: .byOrientation) == Array(0..<11))
    }

    /// A rectangle `length` × `thickness` centred at (cx, cy), turned by `degrees` (image coordinates: clockwise on
    /// screen), corners clockwise from its top-left.
    static func rotatedRect(cx: Double, cy: Double, length: Double, thickness: Double, degrees: Double) -> [Point] {
        RotatedRect(center: Point(x: cx, y: cy), width: length, height: thickness, angle: degrees * .pi / 180).corners
    }

    @Test("skew: the weighted median of the lines' angles, vertical lines folded onto their axis, outliers ignored")
    func skewEstimate() {
        let lines = (0..<5).map { Self.rotatedRect(cx: 500, cy: 100 + 50 * Double($0), length: 600, thickness: 30, degrees: 2) }
        #expect(abs(SkewEstimate.angle(of: lines) * 180 / .pi - 2) < 1e-9)
        let columns = (0..<5).map { Self.rotatedRect(cx: 100 + 50 * Double($0), cy: 500, length: 600, thickness: 30, degrees: 87) }
        #expect(abs(SkewEstimate.angle(of: columns) * 180 / .pi + 3) < 1e-9)
        // A stamp turned 30° and two short boxes (not twice as long as thick) do not move it.
        let stray = [Self.rotatedRect(cx: 50, cy: 50, length: 100, thickness: 20, degrees: 30),
                     Self.rotatedRect(cx: 80, cy: 80, length: 30, thickness: 20, degrees: 40)]
        #expect(abs(SkewEstimate.angle(of: lines + stray) * 180 / .pi - 2) < 1e-9)
        #expect(SkewEstimate.angle(of: Self.skewedParagraph.map(\.quad.points)) == 0)
        #expect(SkewEstimate.angle(of: []) == 0)
    }

    @Test("the frame turns the skew back: a skewed line becomes level")
    func frameLevelsLines() {
        let line = Self.rotatedRect(cx: 500, cy: 300, length: 600, thickness: 30, degrees: -5)
        let box = PageFrame(skew: SkewEstimate.angle(of: [line])).box(of: line)
        #expect(abs(box.height - 30) <= 2 && abs(box.width - 600) <= 2, "\(box)")
        #expect(PageResult.degrees(counterClockwise: -5 * .pi / 180) == 5)
    }
}
