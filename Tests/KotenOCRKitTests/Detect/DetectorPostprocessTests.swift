import Testing
@testable import KotenOCRKit

@Suite struct DEIMPostprocessTests {
    /// Rows: [score, label, char_count, x1, y1, x2, y2] in 800-space.
    private func run(_ rows: [[Float]], S: Int = 1600, charCounts: Bool = true) throws -> [NDLDetection] {
        try DEIMPostprocess.detections(
            labels: rows.map { Int64($0[1]) }, boxes: rows.flatMap { Array($0[3...6]) }, scores: rows.map { $0[0] },
            charCounts: charCounts ? rows.map { Int64($0[2]) } : nil, paddedSize: S)
    }

    @Test func keepsScoresStrictlyAboveQuarter() throws {
        let kept = try run([[0.25000003, 2, 3, 10, 10, 20, 20], [0.25, 2, 3, 10, 10, 20, 20]])
        #expect(kept.count == 1)
        #expect(kept[0].classIndex == 1)
    }

    @Test func scalesInFloat32TruncatesAndClipsToPaddedSquare() throws {
        let d = try run([[0.9, 1, 2, -3, 0.7, 799.9, 900]], S: 1000)[0]
        // scale = float32(1000/800) = 1.25: -3.75 → -3 → 0; 0.875 → 0; 999.875 → 999; 1125 → 1000
        #expect(d.box == PixelBox(x1: 0, y1: 0, x2: 999, y2: 1000))
        #expect(d.charCountClass == 2)
    }

    @Test func unsortedRowsTakeLabelsByPosition() throws {
        // Row 0 is dropped; the kept row 1 takes labels[0] / char_count[0] as the reference does.
        let kept = try run([[0.1, 7, 0, 0, 0, 1, 1], [0.9, 2, 3, 5, 5, 9, 9]])
        #expect(kept.map(\.classIndex) == [6])
        #expect(kept.map(\.charCountClass) == [0])
    }

    @Test func modelWithoutCharCountHeadReadsAs100() throws {
        #expect(try run([[0.9, 2, 3, 5, 5, 9, 9]], charCounts: false).map(\.charCountClass) == [100])
    }

    @Test func dropsLabelsOutsideTheClassTable() throws {
        #expect(try run([[0.9, 0, 3, 5, 5, 9, 9], [0.8, 18, 3, 5, 5, 9, 9], [0.7, 17, 3, 5, 5, 9, 9]]).map(\.classIndex) == [16])
    }

    @Test func rejectsMismatchedSizes() {
        #expect(throws: DetectorOutputError.sizeMismatch(array: "boxes", count: 3, expected: 4)) {
            try DEIMPostprocess.detections(labels: [1], boxes: [0, 0, 1], scores: [0.9], charCounts: nil, paddedSize: 10)
        }
    }
}

@Suite struct RTMDetPostprocessTests {
    @Test func thresholdComparesInFloat32() throws {
        let justAbove = Float(0.3).nextUp
        let d = try RTMDetPostprocess.detections(
            dets: [0, 0, 10, 10, Float(0.3), 0, 0, 10, 10, justAbove], paddedSize: 1280)
        #expect(d.map(\.confidence) == [justAbove])
    }

    @Test func expandsVerticallyByTwoPercentWithoutClipping() throws {
        // S = 2560: y 0..1000 → 0..2000, ±40 → -40..2040; x untouched.
        let d = try RTMDetPostprocess.detections(dets: [100, 0, 200, 1000, 0.9], paddedSize: 2560)
        #expect(d.map(\.box) == [PixelBox(x1: 200, y1: -40, x2: 400, y2: 2040)])
    }

    @Test func singleAndZeroRowsAreHandled() throws {
        #expect(try RTMDetPostprocess.detections(dets: [], paddedSize: 100).isEmpty)
        #expect(try RTMDetPostprocess.detections(dets: [0, 0, 640, 640, 0.5], paddedSize: 100).count == 1)
        #expect(throws: DetectorOutputError.notWholeRows(array: "dets", count: 4, rowWidth: 5)) {
            try RTMDetPostprocess.detections(dets: [0, 0, 1, 1], paddedSize: 100)
        }
    }
}
