import Foundation
import Testing
@testable import KotenOCRKit

/// The real PP-OCRv5 models on real pages, CER computed here against known text.
@Suite("PP-OCRv5 accuracy", .serialized)
struct PPOCRAccuracyTests {
    static func engine() throws -> KotenOCR {
        try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels()))
    }

    @Test("scaned0.png (horizontal print): CER ≤ 3% against the corrected truth")
    func scannedPrint() async throws {
        let page = try await Self.engine().read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
        let truthFile = try String(contentsOf: TestPaths.image("ndlocr-lite-rs/scaned0.txt"), encoding: .utf8)
        // The truth file's one known error (SOURCES.md): the image reads 漁村振興活動.
        let truth = truthFile.replacingOccurrences(of: "水産振興活動", with: "漁村振興活動")
        #expect(truth != truthFile, "the known error was not found in scaned0.txt")
        let cer = characterErrorRate(withoutWhitespace(page.text), reference: withoutWhitespace(truth))
        print("CER scaned0.png: \(String(format: "%.2f", cer * 100))% over \(withoutWhitespace(truth).unicodeScalars.count) characters, \(page.lines.count) lines")
        #expect(cer <= 0.03)
        // The full-width brackets the page prints (width twins: read ASCII in the detector's box).
        #expect(page.lines.map(\.text).contains("（目的）"), "\(page.lines.map(\.text))")
        #expect(page.orientation == "horizontal")
        #expect(page.lines.allSatisfy { $0.orientation == "horizontal" })
        // Reading order: horizontal lines top to bottom.
        #expect(page.lines.map(\.box.y) == page.lines.map(\.box.y).sorted())
    }

    /// The text written on the page: the opening of 枕草子, six columns (SOURCES.md, "Known text").
    static let makuraColumns = ["春はあけぼの。", "やうやう白くなりゆく山ぎは、", "すこしあかりて、紫だちたる",
                                "雲のほそくたなびきたる。", "夏は夜。月のころはさらなり。", "やみもなほ、蛍の多く飛びちがひたる。"]

    @Test("handwritten vertical 枕草子 page: CER ≤ 20%, columns right to left")
    func handwrittenVertical() async throws {
        let page = try await Self.engine().read(TestPaths.image("ndlocr-lite/tategaki2026-04-24-094138.png"))
        let truth = Self.makuraColumns.joined()
        let cer = characterErrorRate(withoutWhitespace(page.text), reference: truth)
        print("CER tategaki (枕草子): \(String(format: "%.2f", cer * 100))% over \(truth.unicodeScalars.count) characters, \(page.lines.count) lines")
        #expect(cer <= 0.20)
        #expect(page.orientation == "vertical")
        // The six columns, read right to left: each column's text is best matched by the next known column.
        let columns = page.lines.filter { $0.orientation == "vertical" && $0.text.unicodeScalars.count >= 4 }
        #expect(columns.count == 6)
        let centres = columns.map { Double($0.box.x) + Double($0.box.width) / 2 }
        #expect(centres == centres.sorted(by: >), "columns not in right-to-left order: \(centres)")
        for (line, known) in zip(columns, Self.makuraColumns) {
            #expect(characterErrorRate(line.text, reference: known) < 0.5, "'\(line.text)' does not read as '\(known)'")
        }
    }

    @Test("keys file is index-aligned with the recogniser's classes")
    func keysAlignment() throws {
        let dir = try TestPaths.ppocrModels().directory(for: .ppocr)
        let files = PPOCRModelFiles(directory: dir)
        let recogniser = try PPOCRRecogniser(model: files.recogniser, keysFile: files.keys)
        #expect(recogniser.decoder.keys.count == 18385)
        #expect(recogniser.decoder.keys.first == "blank")
        #expect(recogniser.decoder.keys.last == " ")
    }
}
