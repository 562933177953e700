import Foundation
import Testing
@testable import KotenOCRKit

/// Where the koten reference crashes or reads nothing, this package deliberately does the
/// sensible thing. Each choice is stated (and checked) here.
extension ParityTests {
    private func kotenCase(_ folder: String) -> ParityCase { ParityCase(mode: "koten", kind: "edge", folder: folder) }

    /// Choice: a page without lines (the reference raises ZeroDivisionError) is written as an
    /// empty page: PAGE without LINEs, empty TXT, `contents: [[]]`, TEI surface with its graphic.
    @Test(arguments: ["zero_detections", "zero_detections_K0"])
    func kotenPageWithoutLinesIsWrittenEmpty(_ folder: String) async throws {
        let c = kotenCase(folder)
        #expect(c.referenceError == "ZeroDivisionError")
        let run = try await KotenParityRunner.runPage(raw: RawOutputs(c), recogniser: AnswerTableRecogniser(c))
        #expect(run.page.lines.isEmpty)
        try KotenCrashCases.expectEmptyPage(run)
    }

    /// Choice: a single detector row (the reference raises IndexError) is one line: the outputs
    /// equal the reference's for the same row when it has company (`edge/single_line`).
    @Test func kotenSingleDetectionRowIsOneLine() async throws {
        let c = kotenCase("single_detection_K1"), golden = kotenCase("single_line")
        #expect(c.referenceError == "IndexError")
        #expect(try RawOutputs(c).floats("dets") == Array(try RawOutputs(golden).floats("dets").prefix(5)))
        let run = try await KotenParityRunner.runPage(raw: RawOutputs(c), recogniser: AnswerTableRecogniser(c))
        let out = KotenParityRunner.outputs(run)
        let stem = try #require(golden.stem)
        try Compare.text(out.xml, Compare.golden(golden, "\(stem).xml"), "K1 xml")
        try Compare.text(out.txt, Compare.golden(golden, "\(stem).txt"), "K1 txt")
        try Compare.text(out.json, Compare.golden(golden, "\(stem).json"), "K1 json")
        try Compare.text(out.tei, Compare.golden(golden, "\(stem)_tei.xml"), "K1 tei")
    }

    /// Choice: a line whose expanded box starts above the image (Y < 0, kept in the XML) is read
    /// from the crop clamped to the image, not from NumPy's empty wrap-around crop.
    @Test func kotenLineAboveTopEdgeIsReadFromClampedCrop() async throws {
        let c = kotenCase("box_above_top_edge")
        let raw = try RawOutputs(c)
        let run = try await KotenParityRunner.runPage(raw: raw, recogniser: AnswerTableRecogniser(c))
        let boxes = run.page.lines.map(\.lineBox)
        #expect(boxes.prefix(2).map(\.y1) == [-6, -9])
        #expect(Array(run.strings.prefix(2)) == ["上端0", "上端1"])
        let (w, h) = try raw.imageSize
        #expect(LineCrop.clamped(boxes[0], imageWidth: w, imageHeight: h) == PixelBox(x1: 1513, y1: 0, x2: 1594, y2: 652))
        #expect(PageOutput.xml(page: run.page).contains("Y=\"-6\" WIDTH=\"81\" HEIGHT=\"658\" CONF=\"0.800\" ORDER=\"0\" STRING=\"上端0\""))
    }

    /// Choice: a batch whose first page is empty (the reference raises on it) writes every page.
    @Test func kotenBatchStartingWithEmptyPageWritesEveryPage() async throws {
        let note = try await KotenCrashCases.batch(kotenCase("batch_with_empty_page"))
        #expect(note != nil)
    }

    /// Choice: output stems keep the whole name before the last extension (the koten reference
    /// cuts at the first dot).
    @Test func outputStemKeepsEveryDot() {
        #expect(PageTask.stem(ofImageName: "vol.2.p003.jpg") == "vol.2.p003")
        #expect(PageTask.stem(ofImageName: "scan") == "scan")
        #expect(PageTask.stem(ofImageName: ".hidden") == ".hidden")
    }
}
