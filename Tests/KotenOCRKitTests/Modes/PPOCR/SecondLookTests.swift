import Foundation
import Testing
@testable import KotenOCRKit

/// The second look at lines read unsure (`SecondLook`, docs/reference-pipelines.md §4, "Step 4, second look").
@Suite struct SecondLookTests {
    static func reading(_ text: String, _ confidence: Float, centres: [Double]? = nil) -> RecognisedText {
        RecognisedText(characters: text.map { .init(text: String($0), confidence: confidence) }, characterCentres: centres)
    }

    @Test("read again: lines under 0.95 and at or above the junk threshold, not empty ones")
    func linesReadAgain() {
        let readings = [Self.reading("本文", 0.99), Self.reading("本文", 0.9), Self.reading("8", 0.3), .empty,
                        Self.reading("本", 0.5), Self.reading("本", 0.95)]
        #expect(SecondLook.lines(readings, minConfidence: 0.5) == [1, 4])
        #expect(SecondLook.lines(readings, minConfidence: 0) == [1, 2, 4])
    }

    @Test("the box grows 0.3 × its thickness along the text at each end, 0.2 × across, whichever way it runs")
    func grownBox() {
        let horizontal = Quad(Point(x: 10, y: 10), Point(x: 110, y: 10), Point(x: 110, y: 30), Point(x: 10, y: 30))
        let h = SecondLook.grown(horizontal, vertical: false)
        #expect(h.along == 6)
        #expect(h.quad == Quad(Point(x: 4, y: 6), Point(x: 116, y: 6), Point(x: 116, y: 34), Point(x: 4, y: 34)))
        let vertical = Quad(Point(x: 10, y: 10), Point(x: 30, y: 10), Point(x: 30, y: 110), Point(x: 10, y: 110))
        let v = SecondLook.grown(vertical, vertical: true)
        #expect(v.along == 6)
        #expect(v.quad == Quad(Point(x: 6, y: 4), Point(x: 34, y: 4), Point(x: 34, y: 116), Point(x: 6, y: 116)))
    }

    @Test("the more confident reading is kept; the second's character centres are taken back to the line's length")
    func betterReading() {
        let first = Self.reading("日<", 0.7, centres: [0.25, 0.75])
        let second = Self.reading("日く", 0.9, centres: [6.0 / 112, 0.5])
        let kept = SecondLook.better(first, second, margin: 6, length: 100)
        #expect(kept.text == "日く")
        let centres = kept.characterCentres ?? []
        #expect(centres.count == 2 && abs(centres[0]) < 1e-9 && abs(centres[1] - 0.5) < 1e-9)
        #expect(SecondLook.better(second, first, margin: 6, length: 100).text == "日く")
        #expect(SecondLook.better(first, .empty, margin: 6, length: 100).text == "日<")
    }

    @Test("handwritten horizontal page: the line read unsure in its box reads its 、 and く in the larger crop")
    func handwrittenLineEnd() async throws {
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels()))
        let page = try await engine.read(TestPaths.image("ndlocr-lite/yokogaki2026-04-24-103617.png"))
        // In the detector's box alone the line reads 日<らし、硯Kむかいて at 0.70 (no 、 at its end).
        #expect(page.lines.map(\.text).contains("日くらし、硯にむかいて、"), "\(page.lines.map(\.text))")
    }
}
