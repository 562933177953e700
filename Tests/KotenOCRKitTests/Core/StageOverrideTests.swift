import Foundation
import Testing
@testable import KotenOCRKit

/// A reader without a model: reads every crop as "<crop width>x<crop height> of <page width>x<page height>".
private struct SizeReader: LineReader {
    func read(_ crop: PixelBox, of page: RGBImage, store: ModelStore) async throws -> RecognisedText {
        RecognisedText(characters: [.init(text: "\(crop.width)x\(crop.height) of \(page.width)x\(page.height)", confidence: 1)])
    }
}

/// Stages supplied through `OCRConfiguration.stages` replace the mode's own, on real pages, and nothing else changes.
@Suite("Stage overrides")
struct StageOverrideTests {
    static func configuration(_ mode: OCRMode, models: ModelDirectory) -> OCRConfiguration {
        OCRConfiguration(mode: mode, models: models, tuneAllocator: false, watchMemoryPressure: false)
    }

    static func quad(_ polygon: [[Double]]) throws -> Quad {
        let p = try polygon.map { corner in
            try #require(corner.count == 2)
            return Point(x: corner[0], y: corner[1])
        }
        try #require(p.count == 4)
        return Quad(p[0], p[1], p[2], p[3])
    }

    @Test("ppocr with a supplied detector: its regions are cut and read by the mode's own reader, in reading order")
    func ppocrSuppliedDetector() async throws {
        let url = TestPaths.image("ndlocr-lite-rs/scaned0.png")
        let own = try await KotenOCR(configuration: Self.configuration(.ppocr, models: try TestPaths.ppocrModels())).read(url)
        try #require(own.lines.count >= 3)
        // Two of the lines the mode's own detector found, given out of reading order.
        let quads = try [2, 0].map { try Self.quad(own.lines[$0].polygon) }
        let detector = FixedDetector(quads.map { Detection(quad: $0, score: 0.5) })
        var config = Self.configuration(.ppocr, models: try TestPaths.ppocrModels())
        config.stages[.ppocr] = StageOverrides(detector: detector)
        let page = try await KotenOCR(configuration: config).read(url)
        #expect(detector.calls == 1)
        #expect(page.lines.map(\.text) == [own.lines[0].text, own.lines[2].text])
        #expect(page.lines.map(\.box) == [own.lines[0].box, own.lines[2].box])
        #expect(page.lines.map(\.readingOrder) == [0, 1])
        #expect(page.lines.map(\.detectionScore) == [0.5, 0.5])
        // The supplied detector has no model: the page lists the reader's models only.
        #expect(page.models.map(\.role) == ["recogniser", "classifier"])
    }

    @Test("ppocr with a supplied detector and reader: a tall region is turned before it is read; no model is loaded")
    func ppocrSuppliedReader() async throws {
        let tall = Quad(Point(x: 100, y: 50), Point(x: 140, y: 50), Point(x: 140, y: 250), Point(x: 100, y: 250))
        let wide = Quad(Point(x: 200, y: 300), Point(x: 500, y: 300), Point(x: 500, y: 330), Point(x: 200, y: 330))
        var config = Self.configuration(.ppocr, models: try TestPaths.ppocrModels())
        config.stages[.ppocr] = StageOverrides(detector: FixedDetector([Detection(quad: wide, score: 0.9),
                                                                        Detection(quad: tall, score: 0.8)]),
                                               reader: SizeReader())
        let engine = try KotenOCR(configuration: config)
        let page = try await engine.read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
        try #require(page.lines.count == 2)
        let byOrientation = Dictionary(uniqueKeysWithValues: page.lines.map { ($0.orientation, $0) })
        // The reader gets each line as its own image, the crop covering it; the tall one turned counter-clockwise.
        let vertical = try #require(byOrientation["vertical"]?.text)
        let horizontal = try #require(byOrientation["horizontal"]?.text)
        let v = try #require(vertical.wholeLineSize), h = try #require(horizontal.wholeLineSize)
        #expect(v.width > v.height, "the vertical line was not turned: \(vertical)")
        #expect(h.width > h.height, "\(horizontal)")
        #expect(page.models.isEmpty)
        #expect(await engine.store.eventLog().isEmpty)
    }

    @Test("koten with a supplied detector and reader: lines in the reference's reading order, XML and TEI written")
    func kotenSuppliedStages() async throws {
        let columns = [PixelBox(x1: 100, y1: 40, x2: 140, y2: 600), PixelBox(x1: 300, y1: 40, x2: 340, y2: 600)]
        var config = Self.configuration(.koten, models: ModelDirectory(root: try ModeFixtures.standIns()))
        config.stages[.koten] = StageOverrides(detector: FixedDetector(columns.map { KotenDetection(confidence: 0.9, box: $0) }),
                                               reader: SizeReader())
        let image = try #require(ModeFixtures.kotenImages.first)
        let page = try await KotenOCR(configuration: config).read(image)
        // Vertical columns read right to left.
        #expect(page.lines.map(\.box.x) == [300, 100])
        #expect(page.lines.allSatisfy { $0.text.hasPrefix("40x560 of ") && $0.kind == "本文" })
        let reference = try #require(page.reference)
        #expect(reference.strings == page.lines.map(\.text))
        #expect(reference.xml.contains("X=\"300\" Y=\"40\" WIDTH=\"40\" HEIGHT=\"560\""))
        var tei = try #require(OCRMode.koten.descriptor.runDocument(for: .tei))
        try tei.add(page)
        #expect(String(decoding: tei.render(), as: UTF8.self).contains("ulx=\"300\""))
    }

    @Test("ndl with a supplied detector and reader: the reader reads for every cascade model")
    func ndlSuppliedStages() async throws {
        // PRED_CHAR_CNT 3 routes to rec30, 2 to rec50, 0 to rec100: one reader serves them all.
        let lines = [(PixelBox(x1: 50, y1: 40, x2: 450, y2: 70), 3.0), (PixelBox(x1: 50, y1: 100, x2: 450, y2: 130), 2.0),
                     (PixelBox(x1: 50, y1: 160, x2: 450, y2: 190), 0.0)]
        let detector = FixedDetector(lines.map { NDLDetection(classIndex: 1, confidence: 0.9, box: $0.0, charCountClass: $0.1) })
        var config = Self.configuration(.ndl, models: ModelDirectory(root: try ModeFixtures.standIns()))
        config.stages[.ndl] = StageOverrides(detector: detector, reader: SizeReader())
        let engine = try KotenOCR(configuration: config)
        let page = try await engine.read(try #require(ModeFixtures.ndlImages.first))
        #expect(page.lines.map(\.box.y) == [40, 100, 160])
        #expect(page.lines.allSatisfy { $0.text.hasPrefix("400x30 of ") })
        #expect(page.models.isEmpty)
        let pipeline = try #require(try engine.pipeline(for: .ndl) as? NDLPipeline)
        #expect(try await pipeline.routing(store: engine.store).isEmpty)
    }

    @Test("ppocr with a supplied order stage: it gets every line upright with its reading, its order is the page's")
    func ppocrSuppliedOrderer() async throws {
        var config = Self.configuration(.ppocr, models: try TestPaths.ppocrModels())
        let orderer = BottomUpOrderer()
        config.stages[.ppocr] = StageOverrides(orderer: orderer)
        let page = try await KotenOCR(configuration: config).read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
        try #require(page.lines.count >= 3)
        #expect(page.lines.map(\.box.y) == page.lines.map(\.box.y).sorted(by: >))
        #expect(page.lines.map(\.readingOrder) == Array(page.lines.indices))
        #expect(page.readingOrderStyle == nil && page.skew == 0)
        // It was asked once, with every line of the page and its reading; a horizontal line reads left to right.
        let given = try #require(orderer.calls.count == 1 ? orderer.calls.first : nil)
        #expect(given.map(\.text.text).sorted() == page.lines.map(\.text).sorted())
        #expect(given.allSatisfy { $0.end.x > $0.start.x && !$0.text.text.isEmpty })
    }

    @Test("a supplied detector whose regions are not the mode's is refused when the pipeline is built")
    func mismatchedDetector() throws {
        var config = Self.configuration(.ppocr, models: try TestPaths.ppocrModels())
        config.stages[.ppocr] = StageOverrides(detector: FixedDetector([KotenDetection]()))
        let engine = try KotenOCR(configuration: config)
        #expect(throws: StageError.mismatch(mode: .ppocr, expected: "Detection", found: "KotenDetection")) {
            try engine.pipeline(for: .ppocr)
        }
    }
}

/// An order stage without geometry rules: lines from the bottom of the page up. Keeps the lines of each call.
private final class BottomUpOrderer: PageOrderer, @unchecked Sendable {
    private let lock = NSLock()
    private var given: [[PageOrder.Line]] = []
    var calls: [[PageOrder.Line]] { lock.withLock { given } }

    func order(_ lines: [PageOrder.Line]) -> PageOrder.Ordering {
        lock.withLock { given.append(lines) }
        return PageOrder.Ordering(order: lines.indices.sorted { lines[$0].quad.bounds.y0 > lines[$1].quad.bounds.y0 })
    }
}

private extension String {
    /// "<w>x<h> of <W>x<H>" where the crop is the whole image: (W, H); nil otherwise.
    var wholeLineSize: (width: Int, height: Int)? {
        let parts = split(separator: " ")
        guard parts.count == 3, parts[0] == parts[2] else { return nil }
        let size = parts[2].split(separator: "x").compactMap { Int($0) }
        return size.count == 2 ? (size[0], size[1]) : nil
    }
}
