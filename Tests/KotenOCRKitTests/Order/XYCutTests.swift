import Foundation
import Testing
@testable import KotenOCRKit

@Suite struct XYCutTests {
    @Test(arguments: discoveredCases())
    func ranksMatchReference(_ c: ParityCase) throws {
        let stages = try JSONAccess.dict(Fixtures.json(c.file("stages.json")))
        guard stages["xycut"] != nil || !c.exists("reference_error.json") else {
            return  // the reference crashed before the xy-cut (K1); nothing to compare
        }
        let xycut = try JSONAccess.dict(stages["xycut"], "xycut")
        let boxes = try JSONAccess.array(xycut["input_boxes_xyxy_document_order"]).map { v -> PixelBox in
            let b = try JSONAccess.box(v)
            return PixelBox(x1: b[0], y1: b[1], x2: b[2], y2: b[3])
        }
        let expected = try JSONAccess.array(xycut["ranks"]).map { try JSONAccess.int($0) }
        #expect(XYCut.readingRanks(of: boxes) == expected, "\(c)")
    }

    @Test func emptyInputGivesNoRanks() {
        #expect(XYCut.readingRanks(of: []).isEmpty)
    }

    @Test func twoVerticalColumnsReadRightToLeft() {
        let left = PixelBox(x1: 0, y1: 0, x2: 20, y2: 200)
        let right = PixelBox(x1: 100, y1: 0, x2: 120, y2: 200)
        #expect(XYCut.readingRanks(of: [left, right]) == [1, 0])
    }

    @Test func horizontalLinesReadTopToBottom() {
        let lower = PixelBox(x1: 0, y1: 100, x2: 300, y2: 120)
        let upper = PixelBox(x1: 0, y1: 0, x2: 300, y2: 20)
        #expect(XYCut.readingRanks(of: [lower, upper]) == [1, 0])
    }
}
