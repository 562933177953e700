import Foundation

/// One line as the formats other tools load (alto, page, hocr, pdf, html, viz) see it: its place in reading
/// order, geometry in page pixels, and its text cut into words with each character's confidence where the
/// recogniser's characters spell the line's text. docs/formats.md.
struct FormatLine {
    let line: PageResult.TextLine
    /// 1-based position in reading order (ids `l1`, `l2`, … in every format).
    let number: Int
    /// The line's characters with their probabilities, when they spell `line.text` (nil when the text was
    /// changed after recognition, as NDL's string clean-up may do: then only the line's confidence is known).
    let characters: [RecognisedText.Character]?

    init(_ line: PageResult.TextLine, number: Int) {
        self.line = line
        self.number = number
        characters = line.characters.map(\.text).joined() == line.text ? line.characters : nil
    }

    var isVertical: Bool { line.orientation == LineOrientation.vertical.rawValue }
    var box: PageResult.Box { line.box }
    var id: String { "l\(number)" }

    /// The outline's corners (page pixels), clockwise from the top-left; the box's corners when the polygon
    /// has fewer than three points.
    var corners: [(x: Double, y: Double)] {
        let points = line.polygon.compactMap { $0.count >= 2 ? (x: $0[0], y: $0[1]) : nil }
        if points.count >= 3 { return points }
        let b = box
        let (x0, y0, x1, y1) = (Double(b.x), Double(b.y), Double(b.x + b.width), Double(b.y + b.height))
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    }

    /// Whether the outline is the box itself (an axis-aligned rectangle).
    var outlineIsBox: Bool {
        let b = box
        let rectangle: Set<[Int]> = [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
        return corners.count == 4 && Set(corners.map { [Int($0.x.rounded()), Int($0.y.rounded())] }) == rectangle
    }

    /// The words of the line: runs of characters between white space, each with its characters' confidences
    /// (empty when unknown). A line without white space is one word; an empty line is one empty word.
    var words: [Word] {
        let pieces: [(text: String, confidence: Float?)] = characters?.map { ($0.text, $0.confidence) }
            ?? line.text.map { (String($0), nil) }
        var words: [Word] = []
        var current = Word(text: "", characters: [], start: 0)
        for (index, piece) in pieces.enumerated() {
            if piece.text.allSatisfy(\.isWhitespace) {
                if !current.text.isEmpty { words.append(current) }
                current = Word(text: "", characters: [], start: index + 1)
                continue
            }
            current.text += piece.text
            current.characters.append(RecognisedText.Character(text: piece.text, confidence: piece.confidence ?? .nan))
        }
        if !current.text.isEmpty || words.isEmpty { words.append(current) }
        return words
    }

    /// The words of the engine's text of a corrected line (`TextLine.modelText`), split as `words` splits; nil for a
    /// line as read.
    var modelWords: [String]? {
        guard let model = line.modelText else { return nil }
        let words = model.split(whereSeparator: \.isWhitespace).map(String.init)
        return words.isEmpty ? [""] : words
    }

    /// A word: its text, its characters (confidence NaN where unknown) and the index of its first character in
    /// the line.
    struct Word {
        var text: String
        var characters: [RecognisedText.Character]
        var start: Int
        /// Whether every character has a known confidence.
        var hasConfidences: Bool { !characters.isEmpty && !characters.contains { $0.confidence.isNaN } }
        var confidence: Float? {
            hasConfidences ? characters.reduce(0) { $0 + $1.confidence } / Float(characters.count) : nil
        }
    }

    /// How many character places the line has (its characters, or the text's characters).
    var characterCount: Int { characters?.count ?? line.text.count }

    /// The quadrilateral of character places `range` (0-based, end exclusive) when the line's outline is cut
    /// evenly into `characterCount` places along its reading direction: an estimate, as the recognisers give
    /// no character positions.
    func estimatedOutline(of range: Range<Int>) -> [(x: Double, y: Double)] {
        let c = corners
        guard c.count == 4, characterCount > 0 else { return c }
        let t0 = Double(range.lowerBound) / Double(characterCount), t1 = Double(range.upperBound) / Double(characterCount)
        func lerp(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ t: Double) -> (x: Double, y: Double) {
            (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
        }
        // Corners clockwise from the top-left: a horizontal line runs 0→1 (top) and 3→2 (bottom), a vertical one
        // 0→3 (left) and 1→2 (right).
        if isVertical {
            return [lerp(c[0], c[3], t0), lerp(c[1], c[2], t0), lerp(c[1], c[2], t1), lerp(c[0], c[3], t1)]
        }
        return [lerp(c[0], c[1], t0), lerp(c[0], c[1], t1), lerp(c[3], c[2], t1), lerp(c[3], c[2], t0)]
    }
}

extension PageResult {
    /// The lines the formats write, in reading order, numbered from 1: the page's `textLines` (lines flagged
    /// `lowConfidence` are left out here as in the text outputs; only the JSON keeps them).
    var formatLines: [FormatLine] {
        textLines.enumerated().map { FormatLine($0.element, number: $0.offset + 1) }
    }

    /// The lines whose text belongs in a text layer (pdf, html): `formatLines` without ruby (`kind` "ruby").
    var textLayerLines: [FormatLine] { formatLines.filter { $0.line.kind != "ruby" } }

    /// `image` (the page as given, `KotenOCR.open`) as the formats that show it draw it: turned back from the
    /// page's `rotation`, so that the image is the upright page the lines' coordinates are in.
    func shownImage(_ image: ImageSource) -> ImageSource { image.turnedUpright(from: rotation ?? .upright) }
}

extension PageResult.Box {
    /// The smallest box holding all of `boxes`; nil for none.
    static func union(_ boxes: [PageResult.Box]) -> PageResult.Box? {
        guard let first = boxes.first else { return nil }
        var (x0, y0, x1, y1) = (first.x, first.y, first.x + first.width, first.y + first.height)
        for b in boxes.dropFirst() {
            (x0, y0, x1, y1) = (min(x0, b.x), min(y0, b.y), max(x1, b.x + b.width), max(y1, b.y + b.height))
        }
        return PageResult.Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// Numbers as the formats write them: no locale, no exponent.
enum FormatNumber {
    /// `value` with at most `digits` decimals, trailing zeros dropped ("0.5", "12", "0.9871").
    static func decimal(_ value: Double, digits: Int = 4) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// "x,y x,y …" with whole pixels (PAGE's and ALTO's points).
    static func points(_ corners: [(x: Double, y: Double)]) -> String {
        corners.map { "\(Int($0.x.rounded())),\(Int($0.y.rounded()))" }.joined(separator: " ")
    }
}
