import Foundation
import Testing
@testable import KotenOCRKit

/// A reader without a model: reads a line as the name `names` gives its pixels ("y?" for a line it does not know).
/// The pipelines cut each line out of the page before reading it, so the line is known by its pixels.
struct TopReader: LineReader {
    var names: [[UInt8]: String] = [:]

    /// Names each of `boxes` of `image` "y<top>".
    init(_ boxes: [PixelBox] = [], of image: URL? = nil) throws {
        guard let image else { return }
        let page = try ImageSource(url: image).decode()
        for box in boxes {
            names[page.cropped(x: box.x1, y: box.y1, width: box.width, height: box.height).pixels] = "y\(box.y1)"
        }
    }

    func read(_ crop: PixelBox, of page: RGBImage, store: ModelStore) async throws -> RecognisedText {
        let line = page.cropped(x: crop.x1, y: crop.y1, width: crop.width, height: crop.height)
        return RecognisedText(characters: [.init(text: names[line.pixels] ?? "y?", confidence: 1)])
    }
}

/// The `ndl` and `koten` modes in the `page` reading order (the default) and in NDL's (`--reading-order ndl`), and
/// with a given page rotation, on the stand-in page images with supplied stages (no model runs).
@Suite("Reading order in the NDL modes")
struct ReadingOrderModeTests {
    static func engine(_ mode: OCRMode, detector: any PageDetector, style: OCRConfiguration.ReadingOrderStyle,
                       rotation: PageRotation? = nil, reader: TopReader? = nil) throws -> KotenOCR {
        var config = OCRConfiguration(mode: mode, models: ModelDirectory(root: try ModeFixtures.standIns()),
                                      tuneAllocator: false, watchMemoryPressure: false)
        config.stages[mode] = StageOverrides(detector: detector, reader: try reader ?? TopReader())
        config.readingOrder = style
        config.pageRotation = rotation
        return try KotenOCR(configuration: config)
    }

    /// The lines' y in the order of the result, of the XML and of the reference TXT.
    static func orders(_ page: PageResult) throws -> (lines: [Int], xml: [Int], txt: [String]) {
        let reference = try #require(page.reference)
        return (page.lines.map(\.box.y), reference.page.lines.compactMap { $0.double("Y").map { Int($0) } },
                reference.text.split(separator: "\n").map(String.init))
    }

    @Test("koten: a skewed paragraph whose boxes touch reads top to bottom, in the result and in NDL's XML and TXT; --reading-order ndl gives NDL's")
    func kotenParagraph() async throws {
        let image = try #require(ModeFixtures.kotenImages.first)
        let detections = PageOrderTests.skewedParagraph.map { KotenDetection(confidence: 0.9, box: $0) }
        let reader = try TopReader(PageOrderTests.skewedParagraph, of: image)
        let page = try await Self.engine(.koten, detector: FixedDetector(detections), style: .page, reader: reader).read(image)
        let tops = PageOrderTests.skewedParagraph.map(\.y1)
        let order = try Self.orders(page)
        #expect(order.lines == tops && order.xml == tops && order.txt == tops.map { "y\($0)" })
        #expect(page.readingOrderStyle == .page && page.rotation == .upright && page.skew == 0)
        let ndl = try await Self.engine(.koten, detector: FixedDetector(detections), style: .ndl).read(image)
        let ndlOrder = try Self.orders(ndl)
        #expect(ndlOrder.lines != tops && ndlOrder.xml == ndlOrder.lines)
        #expect(ndl.readingOrderStyle == .ndl)
    }

    @Test("ndl: the same paragraph as independent LINEs (smoothing and all) reads top to bottom in the page order")
    func ndlParagraph() async throws {
        let image = try #require(ModeFixtures.ndlImages.first)
        let detections = PageOrderTests.skewedParagraph.map { NDLDetection(classIndex: 1, confidence: 0.9, box: $0, charCountClass: 2) }
        let page = try await Self.engine(.ndl, detector: FixedDetector(detections), style: .page).read(image)
        let order = try Self.orders(page)
        let tops = PageOrderTests.skewedParagraph.map(\.y1)
        #expect(order.lines == tops && order.xml == tops)
        let ndl = try await Self.engine(.ndl, detector: FixedDetector(detections), style: .ndl).read(image)
        #expect(try Self.orders(ndl).lines != tops)
    }

    @Test("a given rotation turns the page before detection: the detector sees it upright, the result says so",
          arguments: [OCRMode.koten, .ndl])
    func givenRotation(_ mode: OCRMode) async throws {
        let image = try #require(mode == .koten ? ModeFixtures.kotenImages.first : ModeFixtures.ndlImages.first)
        let source = try ImageSource(url: image)
        let box = PixelBox(x1: 10, y1: 10, x2: 60, y2: 30)
        let engine: KotenOCR
        let sizes: () -> [(width: Int, height: Int)]
        if mode == .koten {
            let detector = FixedDetector([KotenDetection(confidence: 0.9, box: box)])
            engine = try Self.engine(mode, detector: detector, style: .page, rotation: .clockwise90)
            sizes = { detector.pageSizes }
        } else {
            let detector = FixedDetector([NDLDetection(classIndex: 1, confidence: 0.9, box: box, charCountClass: 3)])
            engine = try Self.engine(mode, detector: detector, style: .page, rotation: .clockwise90)
            sizes = { detector.pageSizes }
        }
        let page = try await engine.read(image)
        #expect(sizes().map(\.0) == [source.height] && sizes().map(\.1) == [source.width])
        #expect(page.rotation == .clockwise90)
        #expect(page.source.width == source.height && page.source.height == source.width)
        #expect(try #require(page.reference).image.width == source.height)
    }
}
