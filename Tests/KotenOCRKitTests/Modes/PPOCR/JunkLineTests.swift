import Foundation
import Testing
@testable import KotenOCRKit

/// A reader without a model whose reading depends on the line's width: (text, confidence) by width in pixels.
private struct ScriptedReader: LineReader {
    let byWidth: [Int: (String, Float)]
    func read(_ crop: PixelBox, of page: RGBImage, store: ModelStore) async throws -> RecognisedText {
        guard let (text, p) = byWidth[crop.width] else { return .empty }
        return RecognisedText(characters: text.map { .init(text: String($0), confidence: p) })
    }
}

@Suite("Junk lines: empty text is no line; low confidence is flagged, kept in JSON, left out of the text")
struct JunkLineTests {
    static func quad(x: Double, y: Double, width: Double) -> Quad {
        Quad(Point(x: x, y: y), Point(x: x + width, y: y), Point(x: x + width, y: y + 30), Point(x: x, y: y + 30))
    }

    static func page(minConfidence: Float) async throws -> PageResult {
        var config = OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(), tuneAllocator: false,
                                      watchMemoryPressure: false)
        config.ppocrMinLineConfidence = minConfidence
        // Three boxes on a real page: one the reader finds nothing in, one speck it reads as "o" with
        // probability 0.3, one line it reads well. The quads' widths tell the reader which is which.
        let detections = [Self.quad(x: 100, y: 40, width: 300), Self.quad(x: 100, y: 100, width: 40),
                          Self.quad(x: 100, y: 160, width: 400)].map { Detection(quad: $0, score: 0.9) }
        config.stages[.ppocr] = StageOverrides(detector: FixedDetector(detections),
                                               reader: ScriptedReader(byWidth: [300: ("", 0), 40: ("o", 0.3), 400: ("本文", 0.98)]))
        return try await KotenOCR(configuration: config).read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
    }

    @Test("default 0.5: the empty box is gone, the speck is flagged and listed last, the text has the line only")
    func defaults() async throws {
        let page = try await Self.page(minConfidence: 0.5)
        #expect(page.lines.map(\.text) == ["本文", "o"])
        #expect(page.lines.map(\.lowConfidence) == [nil, true])
        #expect(page.lines.map(\.readingOrder) == [0, 1])
        #expect(page.text == "本文")
        #expect(String(decoding: try ResultFormat.txt.render(page), as: UTF8.self) == "本文\n")
        // The formats other tools load hold the text lines too: the flagged line is in the JSON only.
        let hocr = String(decoding: try ResultFormat.hocr.render(page), as: UTF8.self)
        #expect(hocr.components(separatedBy: "class=\"ocr_line\"").count == 2 && hocr.contains("本文"), "\(hocr)")
        let alto = String(decoding: try ResultFormat.alto.render(page), as: UTF8.self)
        #expect(alto.components(separatedBy: "<TextLine ").count == 2, "\(alto)")
        let json = String(decoding: try ResultFormat.json.render(page), as: UTF8.self)
        #expect(json.contains("\"lowConfidence\" : true"))
        #expect(json.components(separatedBy: "lowConfidence").count == 2, "only the flagged line carries the key")
        let decoded = try ResultJSON.decode(PageResult.self, from: try ResultFormat.json.render(page))
        #expect(decoded.lines.map(\.lowConfidence) == [nil, true])
    }

    @Test("0 keeps every line with text; the empty box is still no line")
    func keepAll() async throws {
        let page = try await Self.page(minConfidence: 0)
        #expect(Set(page.lines.map(\.text)) == ["本文", "o"])
        #expect(page.lines.allSatisfy { $0.lowConfidence == nil })
    }
}
