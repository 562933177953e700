import Foundation
import KotenOCRTestSupport
import Testing
@testable import KotenOCRKit

/// The field cases of reading order, turned pages and ruby (Tests/Fixtures/field/README.md), read by the real
/// PP-OCRv5 models, with their right values; and the two-page spread of issue 11.
@Suite("Reading order on real pages (ppocr)", .serialized)
struct ReadingOrderFieldTests {
    static func engine(_ change: (inout OCRConfiguration) -> Void = { _ in }) throws -> KotenOCR {
        var config = OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(), tuneAllocator: false,
                                      watchMemoryPressure: false)
        change(&config)
        return try KotenOCR(configuration: config)
    }

    static func field(_ name: String) -> URL { TestPaths.fixtures.appendingPathComponent("field/\(name)") }

    static func truth(_ name: String) throws -> [String] {
        try String(contentsOf: field(name), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// `page_upside_down.png` turned further by `quarterTurns` clockwise quarter turns, written to a temporary
    /// PNG (libvips), with the rotation from upright it then has.
    static func upsideDownTwin(quarterTurns: Int) throws -> (url: URL, rotation: PageRotation) {
        let source = try ImageSource(url: field("page_upside_down.png")).decode()
        let image = source.turnedCounterClockwise(quarterTurns: -quarterTurns)
        let url = try TestPaths.temporaryDirectory("upside-down").appendingPathComponent("page_turn\(quarterTurns).png")
        try ImageWriter.save(image, to: url)
        return (url, PageRotation(quarterTurns: 2 + quarterTurns))
    }

    @Test("page_upside_down.png and its twins turned 0°, 90° and 270°: the exact text in order, the turn reported",
          arguments: [0, 1, 2, 3])
    func upsideDownPage(_ quarterTurns: Int) async throws {
        let twin = try Self.upsideDownTwin(quarterTurns: quarterTurns)
        let page = try await Self.engine().read(twin.url)
        #expect(page.lines.map(\.text) == (try Self.truth("page_upside_down.txt")))
        #expect(page.rotation == twin.rotation)
        // Coordinates are in the upright page: a horizontal page, lines top to bottom.
        #expect(page.source.width > page.source.height)
        #expect(page.lines.allSatisfy { $0.orientation == "horizontal" })
        #expect(page.lines.map(\.box.y) == page.lines.map(\.box.y).sorted())
    }

    @Test("a given rotation is used as given: --page-rotation 180 reads the upside-down page as auto does")
    func givenRotation() async throws {
        let url = Self.field("page_upside_down.png")
        let given = try await Self.engine { $0.pageRotation = .halfTurn }.read(url)
        #expect(given.lines.map(\.text) == (try Self.truth("page_upside_down.txt")))
        #expect(given.rotation == .halfTurn)
        // Told it is upright, the engine reads every line upside down (the classifier no longer votes).
        let wrong = try await Self.engine { $0.pageRotation = .upright }.read(url)
        #expect(wrong.rotation == .upright)
        #expect(wrong.lines.map(\.text) != given.lines.map(\.text))
    }

    @Test("vertical_with_ruby.png: the body text exact, each reading marked ruby of the characters it stands beside")
    func verticalRuby() async throws {
        let page = try await Self.engine().read(Self.field("vertical_with_ruby.png"))
        #expect(page.text == (try Self.truth("vertical_with_ruby.txt")).joined(separator: "\n"))
        let ruby = page.lines.filter { $0.kind == "ruby" }
        // Every reading comes right after its body line; the model drops vertical small kana (じゅう → じう).
        #expect(ruby.map(\.text) == ["としょかん", "ふる", "ほん", "か", "えき", "ある", "じうごふん"])
        let bases = ruby.compactMap { line in line.annotates.map { RubyText.base(page.lines[$0.line], $0) } }
        #expect(bases == ["図書館", "古", "本", "借", "駅", "歩", "十五分"])
        #expect(page.text(ruby: .inline).split(separator: "\n").first == "図書館《としょかん》で古《ふる》い本《ほん》を借《か》りた")
        #expect(ruby.allSatisfy { r in r.annotates.map { r.readingOrder > $0.line } ?? false })
    }

    @Test("the two-page spread of issue 11: ordered CER against NDL's text ≤ 13 %, the paragraphs in order")
    func twoPageSpread() async throws {
        let page = try await Self.engine().read(TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        let truth = try String(contentsOf: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.ndlocr-lite-output.txt"),
                               encoding: .utf8)
        let ordered = characterErrorRate(withoutWhitespace(page.text), reference: withoutWhitespace(truth))
        print("CER digidepo_2531162_0024 (ordered, against NDL's text): \(String(format: "%.2f", ordered * 100))%")
        // A bound, not a value: NDL's text is NDL's OCR (its errors, ASCII brackets where the page has full-width
        // ones, no text from the figures, where this engine reads labels and specks). The order's own cost is
        // the gap to the bag-of-characters error, a few points; before the page order it was 38 %, with it 12.5 %,
        // with the second look and width twins 12.1 % (docs/quality.md, "After issue 11, part 3").
        #expect(ordered <= 0.13)
        // The left page's paragraph, line by line (it came out L1, L6, L4, L3, L5, L2, L7).
        let starts = ["気送子送付には", "気の圧縮を使用", "る。後", "各層ステーション", "が通じ投入", "当っては気送子", "する必要がある"]
        let positions = starts.map { s in page.lines.firstIndex { $0.text.contains(s) } ?? -1 }
        #expect(!positions.contains(-1), "\(page.lines.map(\.text))")
        #expect(positions == positions.sorted(), "\(positions)")
        #expect(page.rotation == .upright)
        // The spread lies turned 0.77° clockwise: its lines run down to the right.
        #expect(abs((page.skew ?? 0) + 0.77) < 0.2, "skew \(page.skew ?? .nan)")
    }

    @Test("scaned0.png at detector sizes 1280 and 1920: lines top to bottom", arguments: [1280, 1920])
    func largerDetector(_ side: Int) async throws {
        let page = try await Self.engine { $0.ppocrDetectorMaxSide = side }.read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
        #expect(page.lines.count >= 6)
        let centres = page.lines.map { Double($0.box.y) + Double($0.box.height) / 2 }
        #expect(centres == centres.sorted(), "\(page.lines.map(\.text))")
    }

    @Test("--reading-order ndl keeps NDL's XY-cut: the ruby columns come before their column, as before")
    func ndlOrder() async throws {
        let page = try await Self.engine { $0.readingOrder = .ndl }.read(Self.field("vertical_with_ruby.png"))
        #expect(page.readingOrderStyle == .ndl && page.skew == 0)
        #expect(page.lines.first?.kind == "ruby", "\(page.lines.map(\.text))")
        #expect(page.lines.map(\.text).prefix(5).last == "図書館で古い本を借りた")
    }
}
