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

    @Test("the crops cut from the page decoded again strip by strip are the crops of the whole page, at its edges too")
    func cropsAsFromWholePage() throws {
        // A skewed line of the spread, one over its left edge and one over its bottom-right corner.
        let source = try ImageSource(url: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        let quads = [Quad(Point(x: 420.3, y: 250.7), Point(x: 1000.6, y: 258.2), Point(x: 999.9, y: 301.4), Point(x: 419.5, y: 294.1)),
                     Quad(Point(x: -12.5, y: 700), Point(x: 80, y: 700), Point(x: 80, y: 740.5), Point(x: -12.5, y: 740.5)),
                     Quad(Point(x: 2000.2, y: 1400.8), Point(x: 2060, y: 1402), Point(x: 2059, y: 1460), Point(x: 1999.1, y: 1459))]
        let page = try source.decode()
        let crops = try SecondLook.crops(of: quads, from: source)
        for (quad, crop) in zip(quads, crops) {
            let whole = perspectiveCrop(page, quad: quad)
            #expect(crop.width == whole.width && crop.height == whole.height)
            let differing = zip(crop.pixels, whole.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) values differ in the crop of \(quad)")
        }
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

    @Test("--no-second-look reads each line once, in its box: the same page as the reference pipelines read it")
    func cliSwitch() throws {
        let page = TestPaths.image("ndlocr-lite/yokogaki2026-04-24-103617.png").path
        let base = ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q"]
        let once = try runProcess(TestPaths.cli, base + ["--no-second-look", page])
        #expect(once.status == 0)
        #expect(once.stdout.split(separator: "\n").contains("日<らし、硯Kむかいて"), "\(once.stdout)")
        let twice = try runProcess(TestPaths.cli, base + [page])
        #expect(twice.stdout.split(separator: "\n").contains("日くらし、硯にむかいて、"), "\(twice.stdout)")
    }
}
