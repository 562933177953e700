import Foundation
import Testing
@testable import KotenOCRKit

/// The 、 and 。 of vertical lines, found in the line's pixels (`VerticalPunctuation`, docs/reference-pipelines.md §4,
/// "Step 4, vertical punctuation"): the rule on strips drawn for it, then the real recogniser on a real page.
@Suite struct VerticalPunctuationTests {
    /// A white strip 48 high (a vertical line turned a quarter counter-clockwise, as the recogniser reads it) with
    /// black 28×28 squares for characters centred at `characters`, and `ink` drawn on it.
    static func strip(width: Int, characters: [Int], ink: [(x: ClosedRange<Int>, y: ClosedRange<Int>)] = [],
                      ring: (cx: Int, cy: Int, outer: Int, inner: Int)? = nil) -> RGBImage {
        var image = RGBImage(width: width, height: 48)
        image.pixels = [UInt8](repeating: 255, count: width * 48 * 3)
        func set(_ x: Int, _ y: Int) {
            guard x >= 0, x < width, y >= 0, y < 48 else { return }
            for c in 0..<3 { image.pixels[(y * width + x) * 3 + c] = 0 }
        }
        for c in characters { for y in 10..<38 { for x in (c - 14)..<(c + 14) { set(x, y) } } }
        for box in ink { for y in box.y { for x in box.x { set(x, y) } } }
        if let r = ring {
            for y in (r.cy - r.outer)...(r.cy + r.outer) { for x in (r.cx - r.outer)...(r.cx + r.outer) {
                let d = (x - r.cx) * (x - r.cx) + (y - r.cy) * (y - r.cy)
                if d <= r.outer * r.outer && d > r.inner * r.inner { set(x, y) }
            } }
        }
        return image
    }

    /// 、 as printed in vertical writing, turned: a short diagonal stroke, 3 pixels thick.
    static func comma(at x: Int, y: Int) -> [(x: ClosedRange<Int>, y: ClosedRange<Int>)] {
        (0..<8).map { k in (x: (x + k)...(x + k + 2), y: (y + k)...(y + k)) }
    }

    static let centres: [Double] = [20, 52, 84, 148, 180]
    /// What the squares stand for: a kanji before the gap.
    static let read = ["し", "て", "図", "つ", "て"]

    @Test("a ring in the top half of a cell the characters leave out is 。; a stroke is 、; a filled dot is 。")
    func marks() {
        let ring = VerticalPunctuation.find(in: Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ring: (110, 11, 6, 3)),
                                            centres: Self.centres, read: Self.read)
        #expect(ring.mapValues { $0.map(\.text) } == [2: ["。"]])
        #expect(abs((ring[2]?.first?.centre ?? 0) - 110.5) <= 1)
        let comma = VerticalPunctuation.find(in: Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: Self.comma(at: 104, y: 6)),
                                             centres: Self.centres, read: Self.read)
        #expect(comma.mapValues { $0.map(\.text) } == [2: ["、"]])
        let dot = VerticalPunctuation.find(in: Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: [(104...112, 6...14)]),
                                           centres: Self.centres, read: Self.read)
        #expect(dot.mapValues { $0.map(\.text) } == [2: ["。"]])
    }

    @Test("a bar across the middle of a cell left out after a kana is ー; after a kanji, or off the middle, nothing")
    func longVowel() {
        let bar = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: [(102...126, 22...25)])
        #expect(VerticalPunctuation.find(in: bar, centres: Self.centres, read: ["イ", "ン", "タ", "ネ", "ト"])
            .mapValues { $0.map(\.text) } == [2: ["ー"]])
        // After the kanji 図: not the long-vowel mark.
        #expect(VerticalPunctuation.find(in: bar, centres: Self.centres, read: Self.read).isEmpty)
        // Along the line's top edge: neither a mark (too long) nor ー (off the middle).
        let high = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: [(102...126, 2...5)])
        #expect(VerticalPunctuation.find(in: high, centres: Self.centres, read: ["イ", "ン", "タ", "ネ", "ト"]).isEmpty)
    }

    @Test("the pitch is the lower median of the spacings: one of two spacings spanning a cell left out still shows it")
    func lowerMedian() {
        // Three characters, spacings 32 and 64: the upper median (64) would take the left-out cell for the pitch.
        let page = Self.strip(width: 140, characters: [20, 52, 116], ink: Self.comma(at: 72, y: 6))
        #expect(VerticalPunctuation.find(in: page, centres: [20, 52, 116], read: ["雨", "が", "降"])
            .mapValues { $0.map(\.text) } == [1: ["、"]])
    }

    @Test("a dot across the line's middle (an ellipsis' dot in vertical writing) is no mark")
    func middleDot() {
        let page = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: [(108...113, 19...24)])
        #expect(VerticalPunctuation.find(in: page, centres: Self.centres, read: Self.read).isEmpty)
        // The same dot in the top part is 。.
        let top = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: [(108...113, 8...13)])
        #expect(VerticalPunctuation.find(in: top, centres: Self.centres, read: Self.read).mapValues { $0.map(\.text) } == [2: ["。"]])
    }

    @Test("after the last character, up to the line's end: the column's final 。")
    func atTheEnd() {
        let marks = VerticalPunctuation.find(in: Self.strip(width: 210, characters: [20, 52, 84, 116, 148, 180], ring: (201, 11, 6, 3)),
                                             centres: [20, 52, 84, 116, 148, 180], read: ["か", "く", "の", "ご", "と", "し"])
        #expect(marks.mapValues { $0.map(\.text) } == [5: ["。"]])
    }

    @Test("nothing: a mark in the bottom half, a dropped character, ink beside the mark, no cell left out, a speck")
    func nothing() {
        let low = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ring: (110, 36, 6, 3))
        #expect(VerticalPunctuation.find(in: low, centres: Self.centres, read: Self.read).isEmpty)
        let dropped = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: [(104...126, 10...32)])
        #expect(VerticalPunctuation.find(in: dropped, centres: Self.centres, read: Self.read).isEmpty)
        let beside = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: Self.comma(at: 104, y: 6) + [(118...124, 24...40)])
        #expect(VerticalPunctuation.find(in: beside, centres: Self.centres, read: Self.read).isEmpty)
        // Evenly spaced characters: a mark-sized blob between two of them is not in a cell left out.
        let even = Self.strip(width: 200, characters: [20, 60, 100, 140, 180], ink: Self.comma(at: 36, y: 4))
        #expect(VerticalPunctuation.find(in: even, centres: [20, 60, 100, 140, 180], read: Self.read).isEmpty)
        let speck = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: [(108...110, 6...8)])
        #expect(VerticalPunctuation.find(in: speck, centres: Self.centres, read: Self.read).isEmpty)
    }

    @Test("restore inserts the marks after their characters, with the line's confidence and their centres")
    func restore() {
        let line = Self.strip(width: 200, characters: [20, 52, 84, 148, 180], ink: Self.comma(at: 104, y: 6))
        let characters = zip(["し", "て", "図", "つ", "て"], [0.9, 0.8, 1.0, 0.7, 0.6] as [Float]).map { RecognisedText.Character(text: $0, confidence: $1) }
        let read = RecognisedText(characters: characters, characterCentres: Self.centres.map { $0 / 200 })
        let restored = VerticalPunctuation.restore(read, line: line)
        #expect(restored.text == "して図、つて")
        #expect(restored.characters[3].confidence == read.confidence)
        #expect(abs((restored.confidence ?? 0) - (read.confidence ?? 1)) < 1e-6)
        #expect(restored.characterCentres?.count == 6)
        // Without the characters' centres (a reader that does not tell): as read.
        #expect(VerticalPunctuation.restore(RecognisedText(characters: characters), line: line) == RecognisedText(characters: characters))
    }

    @Test("a vertical page (Noto Serif CJK, 方丈記 and 徒然草): every 、 and 。 in place; none without the rule")
    func realPage() async throws {
        let dir = TestPaths.fixtures.appendingPathComponent("field")
        let truth = try String(contentsOf: dir.appendingPathComponent("vertical_punctuation.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        var configuration = OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(), tuneAllocator: false,
                                             watchMemoryPressure: false)
        let page = try await KotenOCR(configuration: configuration).read(dir.appendingPathComponent("vertical_punctuation.png"))
        #expect(page.textLines.map(\.text) == truth)
        configuration.ppocrVerticalPunctuation = false
        let without = try await KotenOCR(configuration: configuration).read(dir.appendingPathComponent("vertical_punctuation.png"))
        let marks = Set("、。")
        #expect(without.textLines.map { $0.text.filter { !marks.contains($0) } } == truth.map { $0.filter { !marks.contains($0) } })
        #expect(!without.text.contains { marks.contains($0) })
    }

    @Test("ruby stays ruby beside columns that gain their marks (was: あした and ふぶき printed as body lines)")
    func rubyBesideMarks() async throws {
        let dir = TestPaths.fixtures.appendingPathComponent("field")
        let configuration = OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(), tuneAllocator: false,
                                             watchMemoryPressure: false)
        let page = try await KotenOCR(configuration: configuration).read(dir.appendingPathComponent("vertical_ruby_marks.png"))
        let text = page.text
        for reading in ["もみじ", "ほん", "ちゃ", "しぐれ", "あした", "ふぶき"] {
            #expect(!text.contains(reading), "\(reading) in the body text: \(text)")
        }
        #expect(page.lines.filter { $0.kind == "ruby" }.count >= 4, "\(page.lines.map { ($0.text, $0.kind ?? "") })")
        // The body's marks are found (the recogniser reads none of them in these columns).
        #expect(text.filter { $0 == "、" || $0 == "。" }.count >= 4, "\(text)")
    }
}
