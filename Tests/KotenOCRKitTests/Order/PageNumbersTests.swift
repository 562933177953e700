import Testing
@testable import KotenOCRKit

/// PageNumbers' rule on boxes and texts (the pipeline's use of it: SweepTests' page-number pages).
@Suite("Page numbers")
struct PageNumbersTests {
    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quad {
        Quad(Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1))
    }

    @Test("what a printed page number looks like", arguments: [
        ("12", true), ("１２", true), ("- 12 -", true), ("（３）", true), ("[7]", true), ("2024", true),
        ("12345", false), ("1２", false), ("第12", false), ("12頁", false), ("-", false), ("()", false), ("", false),
    ])
    func numberText(_ text: String, _ expected: Bool) {
        #expect(PageNumbers.isNumber(text) == expected, "\(text)")
    }

    @Test("a number below or above every other line is the page's number; one among the lines is text")
    func placement() {
        let body = [(Self.box(100, 100, 900, 140), "本文の一行目"), (Self.box(100, 160, 900, 200), "本文の二行目")]
        // Below the block, at its left (where the XY-cut met it first).
        #expect(PageNumbers.find(body + [(Self.box(40, 230, 70, 260), "12")]) == [2])
        // Above it, at its right.
        #expect(PageNumbers.find([(Self.box(880, 40, 910, 70), "13")] + body) == [0])
        // Between two lines, or beside one: part of the text.
        #expect(PageNumbers.find([body[0], (Self.box(100, 145, 140, 158), "12"), body[1]]).isEmpty)
        #expect(PageNumbers.find(body + [(Self.box(920, 170, 950, 195), "12")]).isEmpty)
        // A page of numbers only has none: they are its text.
        #expect(PageNumbers.find([(Self.box(100, 100, 140, 130), "1"), (Self.box(100, 200, 140, 230), "2")]).isEmpty)
    }
}
