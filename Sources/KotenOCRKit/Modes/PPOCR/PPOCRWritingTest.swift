/// Tells a page of vertical writing from one of horizontal writing turned a quarter turn, which cut and turn their
/// main lines into the same crop (`PPOCRPageOrientation`): in that crop vertical writing's glyphs lie turned a
/// quarter counter-clockwise (as PP-OCR's recogniser was trained to read vertical lines), horizontal writing's
/// stand upright. Each glyph cell of the crop (between the midpoints of neighbouring characters' CTC centres) is
/// turned a quarter clockwise and the cells are read again as one line: upright glyphs of vertical writing read
/// about as confidently as the crop did (on the corpus and the NDL pages: at least 0.70 × the crop's mean
/// confidence); horizontal writing's glyphs now lie on their side and read badly (at most 0.55 ×, or nothing).
/// A line votes vertical at `minShare` (0.65) × or more, horizontal at `maxShareHorizontal` (0.55) × or less, and
/// not at all between, nor when its own reading is less sure than `minLineConfidence`: on a page the model cannot
/// read (kuzushiji), neither reading says anything. The page keeps the writing its lines' shape says (an upright
/// or upside-down page) unless most voting lines say otherwise.
/// Source: issue 11; measured on the `make quality` corpus (docs/quality.md).
enum PPOCRWritingTest {
    /// Cells read with at least this share of the crop's mean confidence are upright glyphs of vertical writing.
    static let minShare: Float = 0.65
    /// Cells read with at most this share are glyphs on their side: horizontal writing.
    static let maxShareHorizontal: Float = 0.55
    /// Lines read less confidently do not vote.
    static let minLineConfidence: Float = 0.8

    /// Most glyph cells turned and read: the cells' run costs as much as the line's own (a long line's tensor is
    /// [1,3,48,~2000]), and a window of them tells the writing as well as all of them do. The window is the middle
    /// of the line, compared with the same characters' confidence in the line's reading.
    static let maxCells = 16

    /// The characters the test turns: at most `maxCells` from the middle of `count`.
    static func window(_ count: Int) -> Range<Int> {
        let n = min(count, maxCells), start = (count - n) / 2
        return start..<(start + n)
    }

    /// The mean confidence of the reading's characters in `window(characters.count)`: what the cells' reading is
    /// compared with (nil for an empty reading).
    static func windowConfidence(_ reading: RecognisedText) -> Float? {
        let w = window(reading.characters.count)
        guard !w.isEmpty else { return nil }
        return reading.characters[w].reduce(0) { $0 + $1.confidence } / Float(w.count)
    }

    /// The crop `line` (turned as read, text left to right) with the glyph cells of the characters in
    /// `window(count)` each turned a quarter clockwise, side by side in a row, centred on a strip of the line's
    /// background; nil when the reading has fewer than two characters or no character centres.
    static func cells(_ line: RGBImage, reading: RecognisedText) -> RGBImage? {
        guard let centres = reading.characterCentres, centres.count >= 2, line.width > 0, line.height > 0 else { return nil }
        let xs = centres.map { $0 * Double(line.width) }
        var bounds: [Int] = [max(0, Int((xs[0] - (xs[1] - xs[0]) / 2).rounded()))]
        for k in 0..<(xs.count - 1) { bounds.append(Int(((xs[k] + xs[k + 1]) / 2).rounded())) }
        let last = xs.count - 1
        bounds.append(min(line.width, Int((xs[last] + (xs[last] - xs[last - 1]) / 2).rounded())))
        let cells = Array(zip(bounds, bounds.dropFirst()))[window(xs.count)]
        return uprightCells(line, cells: cells.map { $0.0..<$0.1 })
    }

    /// The columns `cells` of `line` (turned as read, text left to right), each turned a quarter clockwise (a
    /// vertical line's glyphs upright), side by side in a row, centred on a strip of the line's background; nil
    /// when no cell is wider than nothing.
    static func uprightCells(_ line: RGBImage, cells: [Range<Int>]) -> RGBImage? {
        let pieces = cells.compactMap { c -> RGBImage? in
            let c = c.clamped(to: 0..<line.width)
            return c.isEmpty ? nil : line.cropped(x: c.lowerBound, y: 0, width: c.count, height: line.height)
        }
        return uprightCells(pieces, background: background(line))
    }

    /// `cells` (pieces of a line turned as read) each turned a quarter clockwise, side by side in a row, centred on
    /// a strip of `background`; nil when none has pixels.
    static func uprightCells(_ cells: [RGBImage], background: (UInt8, UInt8, UInt8)) -> RGBImage? {
        let pieces = cells.filter { $0.width > 0 && $0.height > 0 }.map { $0.rotatedClockwise() }
        guard !pieces.isEmpty else { return nil }
        let height = pieces.map(\.height).max() ?? 0
        var strip = RGBImage(width: pieces.reduce(0) { $0 + $1.width }, height: height)
        strip.fill(background)
        var x = 0
        for piece in pieces {
            strip.paste(piece, x: x, y: (height - piece.height) / 2)
            x += piece.width
        }
        return strip
    }

    /// Whether the cells' reading (mean confidence `cells`, 0 for nothing read) says the glyphs are vertical
    /// writing's, given the crop's reading (`line`); nil when the crop's reading is too unsure to vote or the
    /// cells' share falls between the two marks.
    static func isVertical(line: Float, cells: Float) -> Bool? {
        guard line >= minLineConfidence else { return nil }
        if cells >= minShare * line { return true }
        if cells <= maxShareHorizontal * line { return false }
        return nil
    }

    /// The median colour of the line's top and bottom rows (its background, for a line cut with a margin).
    static func background(_ image: RGBImage) -> (UInt8, UInt8, UInt8) {
        var channels: [[UInt8]] = [[], [], []]
        for row in Set([0, image.height - 1]) {
            for x in 0..<image.width {
                let i = (row * image.width + x) * 3
                for c in 0..<3 { channels[c].append(image.pixels[i + c]) }
            }
        }
        func median(_ v: [UInt8]) -> UInt8 { v.isEmpty ? 255 : v.sorted()[v.count / 2] }
        return (median(channels[0]), median(channels[1]), median(channels[2]))
    }
}

extension RGBImage {
    /// Every pixel set to `colour`.
    mutating func fill(_ colour: (UInt8, UInt8, UInt8)) {
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = colour.0; pixels[i + 1] = colour.1; pixels[i + 2] = colour.2
        }
    }
}
