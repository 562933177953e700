import Foundation
import Testing
@testable import KotenOCRKit

/// Ruby found by geometry (`RubyLayout`) and written as text (`PageResult.text(ruby:)`), on hand-made lines.
@Suite struct RubyTests {
    static func line(_ box: PixelBox, vertical: Bool, _ text: String, centres: [Double]? = nil) -> RubyLayout.Line {
        let chars = text.map(String.init)
        return RubyLayout.Line(box: box, vertical: vertical, characterCentres: centres, characterCount: chars.count,
                               kanaCount: chars.filter(RubyLayout.isKana).count)
    }

    @Test("vertical: small kana right of a column, beside its first three characters, are ruby of them")
    func verticalRuby() {
        // Body: 11 characters of 40 px from y = 60; ruby としょかん (5 half-size characters) beside characters 0–2.
        let body = Self.line(PixelBox(x1: 190, y1: 60, x2: 238, y2: 500), vertical: true, "図書館で古い本を借りた")
        let ruby = Self.line(PixelBox(x1: 233, y1: 70, x2: 258, y2: 175), vertical: true, "としょかん")
        let left = Self.line(PixelBox(x1: 160, y1: 70, x2: 185, y2: 175), vertical: true, "としょかん")
        #expect(RubyLayout.links([body, ruby, left]) == [1: RubyLayout.Link(line: 0, start: 0, end: 3)])
    }

    @Test("horizontal: readings above the line; the CTC centres say which characters")
    func horizontalRuby() {
        let centres = (0..<10).map { 70 + 36 * (Double($0) + 0.5) }
        let body = Self.line(PixelBox(x1: 70, y1: 93, x2: 430, y2: 133), vertical: false, "図書館の書庫には、明", centres: centres)
        let shoko = Self.line(PixelBox(x1: 222, y1: 70, x2: 276, y2: 91), vertical: false, "しょこ")
        let below = Self.line(PixelBox(x1: 222, y1: 135, x2: 276, y2: 156), vertical: false, "しょこ")
        #expect(RubyLayout.links([body, shoko, below]) == [1: RubyLayout.Link(line: 0, start: 4, end: 6)])
    }

    @Test("not ruby: a full-size short column beside another, a small heading with kanji above a line, a speck far off")
    func notRuby() {
        // A paragraph's last column: a thinner box, but characters as large as its neighbour's (geppo's page).
        let column = Self.line(PixelBox(x1: 589, y1: 148, x2: 614, y2: 433), vertical: true, "次世代室は図書館の役割がイタネト等の情")
        let short = Self.line(PixelBox(x1: 619, y1: 141, x2: 637, y2: 306), vertical: true, "ころか想像しにくいですね")
        #expect(RubyLayout.links([column, short]).isEmpty)
        let body = Self.line(PixelBox(x1: 426, y1: 255, x2: 996, y2: 301), vertical: false, "気送子送付には、上記気送管にて送付するものと、空")
        let heading = Self.line(PixelBox(x1: 376, y1: 225, x2: 573, y2: 257), vertical: false, "(2)気送子送付管")
        let far = Self.line(PixelBox(x1: 500, y1: 150, x2: 540, y2: 170), vertical: false, "しょ")
        #expect(RubyLayout.links([body, heading, far]).isEmpty)
    }

    static func textLine(_ order: Int, _ text: String, ruby: PageResult.RubyTarget? = nil) -> PageResult.TextLine {
        PageResult.TextLine(readingOrder: order, text: text, confidence: 1,
                            characters: text.map { .init(text: String($0), confidence: 1) }, orientation: "vertical",
                            detectionScore: 1, box: .init(x: 0, y: 0, width: 1, height: 1), polygon: [],
                            kind: ruby == nil ? nil : "ruby", annotates: ruby)
    }

    static let page = PageResult(
        source: .init(path: "p.png", page: 1, pageCount: 1, width: 1, height: 1, exifOrientation: 1), mode: .ppocr,
        models: [], orientation: "vertical", lines: [
            textLine(0, "図書館で古い本を借りた"), textLine(1, "としょかん", ruby: .init(line: 0, start: 0, end: 3)),
            textLine(2, "ほん", ruby: .init(line: 0, start: 6, end: 7)), textLine(3, "ふる", ruby: .init(line: 0, start: 4, end: 5)),
            textLine(4, "東京の人々と京都へ"), textLine(5, "とう", ruby: .init(line: 4, start: 0, end: 1)),
            textLine(6, "きょう", ruby: .init(line: 4, start: 1, end: 2)), textLine(7, "ひとびと", ruby: .init(line: 4, start: 3, end: 5)),
            textLine(8, "きょ", ruby: .init(line: 4, start: 6, end: 7)), textLine(9, "うと", ruby: .init(line: 4, start: 6, end: 8)),
            textLine(10, "ABCの本"), textLine(11, "えーびーしー", ruby: .init(line: 10, start: 0, end: 3)),
        ])

    @Test("text: ruby dropped by default, listed after the body, or in Aozora Bunko notation with ｜ where needed")
    func rubyText() {
        let body = "図書館で古い本を借りた\n東京の人々と京都へ\nABCの本"
        #expect(Self.page.text == body)
        #expect(Self.page.text(ruby: .drop) == body)
        #expect(Self.page.text(ruby: .separate) == body + "\n\n" + ["図書館\tとしょかん", "本\tほん", "古\tふる", "東\tとう",
                                                                  "京\tきょう", "人々\tひとびと", "京\tきょ", "京都\tうと",
                                                                  "ABC\tえーびーしー"].joined(separator: "\n"))
        // 古 follows で and 本 follows い: kanji runs of their own. 京 follows the kanji 東: ｜ marks where its
        // base starts, as does it for ABC (not kanji). きょ and うと annotate overlapping characters: one ruby.
        #expect(Self.page.text(ruby: .inline) == """
            図書館《としょかん》で古《ふる》い本《ほん》を借りた
            東《とう》｜京《きょう》の人々《ひとびと》と京都《きょうと》へ
            ｜ABC《えーびーしー》の本
            """)
        #expect(RubyText.isKanji("々") && RubyText.isKanji("館") && !RubyText.isKanji("か") && !RubyText.isKanji("ab"))
    }
}
