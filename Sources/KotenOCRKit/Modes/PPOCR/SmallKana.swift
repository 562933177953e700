import Foundation

/// The small kana of vertical writing (っゃゅょ, ぁぃぅぇぉ, ッャュョ, ァィゥェォ, ゎヮヵヶ), which PP-OCRv5's recogniser
/// passes over when they are set as tategaki sets them (the font's vertical forms, in the top-right part of their
/// cell), read again from the line's cells turned upright (docs/reference-pipelines.md §4, "Step 4, small kana").
///
/// Why: `make sweep`'s real tategaki pages (Noto CJK's `vert` forms) read ちょっと待ってください as ちと待てください
/// with the line at 99 %; the same cells turned upright and read as a row of upright glyphs read ちょっと待って.
///
/// The rule, on the line as the recogniser saw it (turned a quarter counter-clockwise, scaled to height H = 48): the
/// characters' CTC centres give the pitch (`VerticalPunctuation.pitch`); where they leave cells out (the next centre
/// ≥ 1.5 pitches on; before the first and after the last, the line's ends), each left-out cell holding ink (Otsu's
/// split, regions whose centre is in the cell, together at least a quarter pitch on their longer side) is cut, with
/// the characters on each side of the gap when they are kana or kanji (glyphs that read the same upright), each
/// cell turned a quarter clockwise, side by side (`PPOCRWritingTest.uprightCells`), and read (`windows`, then the
/// caller's reader). A reading is used when it has one character per cell and its first and last are the
/// neighbours as the line read them; each character read for a left-out cell that is kana at `minConfidence` or more
/// goes in, its small form when its ink is small (its longer side at most `smallShare` × the median of the line's
/// read characters': vertical forms of small kana are 0.49–0.68 em, their full-size twins 0.72–0.86 but ヨ 0.61),
/// with the probability it was read at and `foundBy` `smallKana` (`merge`). Lines read otherwise are left as they are.
enum SmallKana {
    /// What a character found here says in its `foundBy`.
    static let foundBy = "smallKana"
    /// Characters read for a left-out cell under this probability are not taken.
    static let minConfidence: Float = 0.4
    /// Ink at most this share of the line's median character (its longer side) is a small kana's.
    static let smallShare = 0.8

    /// A gap's cells to be read upright, with what its reading must show.
    struct Window: Sendable {
        /// The index of the character the gap follows (-1 before the first), or of the character read whose size the
        /// window reads again (`resizes`).
        var after: Int
        /// The window reads again a kana the recogniser read full-size where its ink is a small kana's: its reading
        /// says which size it is.
        var resizes = false
        /// The neighbours put in the window (nil: none on that side), as the line read them.
        var before: String?
        var next: String?
        /// Each inked left-out cell: its centre as a share of the line's length, and whether its ink is small.
        var cells: [(centre: Double, small: Bool)]
        /// The cells turned upright, side by side, the neighbours' with them.
        var image: RGBImage
    }

    /// The ink of a vertical line around its characters, on the line as the recogniser saw it (turned as read,
    /// scaled to height H = 48): the pitch, the regions of ink in the column, the typical glyph and the column's middle.
    struct LineInk {
        let line: RGBImage
        let width: Double, h: Double
        let centres: [Double]
        let pitch: Double
        let regions: [VerticalPunctuation.Box]
        /// The median longer side of the characters read (strip pixels), and the median of their middles across.
        let typical: Double, middle: Double

        init?(_ text: RecognisedText, line: RGBImage) {
            guard let fractions = text.characterCentres, !text.characters.isEmpty, line.width > 0, line.height > 0 else { return nil }
            let strip = bilinearResize(line, width: PPOCRRecogniser.inputWidth(line), height: VerticalPunctuation.height)
            (self.line, width, h) = (line, Double(strip.width), Double(strip.height))
            centres = fractions.map { $0 * Double(strip.width) }
            pitch = Self.pitch(centres, height: Double(strip.height))
            let mask = VerticalPunctuation.inkMask(strip)
            let all = connectedRegions(mask: mask, width: strip.width, height: strip.height)
                .filter { $0.pixelCount >= 3 }.map(VerticalPunctuation.Box.init)
            let pitch = self.pitch
            let read = centres.compactMap { Self.box(of: all, around: $0, pitch: pitch) }
            guard !read.isEmpty else { return nil }
            let typical = Self.median(read.map { Double(max($0.x1 - $0.x0, $0.y1 - $0.y0) + 1) })
            let middle = Self.median(read.map { Double($0.y0 + $0.y1 + 1) / 2 })
            (self.typical, self.middle) = (typical, middle)
            // The column's own ink: a neighbouring column or ruby cut into the crop is left out.
            regions = all.filter { abs($0.centreY - middle) <= 0.75 * typical }
        }

        /// The line's pitch (strip pixels): the median of its characters' spacings of one cell (those up to 1.4 × the
        /// lower quartile), kept within 0.4–1.5 × `height` (`height` for fewer than three characters). Not
        /// `VerticalPunctuation`'s lower median: in a line dense with small kana and long-vowel marks
        /// (パーティーでディスクジョッキー) half the spacings and more span cells left out.
        static func pitch(_ centres: [Double], height h: Double) -> Double {
            let gaps = zip(centres, centres.dropFirst()).map { $1 - $0 }.sorted()
            guard centres.count >= 3 else { return h }
            // The spacings of one cell: up to 1.4 × the lower quartile (the CTC centres jitter by a step or so).
            let quartile = gaps[(gaps.count - 1) / 4]
            let single = gaps.filter { $0 <= 1.4 * quartile }
            return min(1.5 * h, max(0.4 * h, single[(single.count - 1) / 2]))
        }

        /// The box of the regions whose centre is within half a pitch of `centre` along the line.
        static func box(of regions: [VerticalPunctuation.Box], around centre: Double, pitch: Double) -> Ink? {
            let inside = regions.filter { abs($0.centreX - centre) <= pitch / 2 }
            guard let x0 = inside.map(\.x0).min(), let x1 = inside.map(\.x1).max(),
                  let y0 = inside.map(\.y0).min(), let y1 = inside.map(\.y1).max() else { return nil }
            return Ink(x0: x0, y0: y0, x1: x1, y1: y1)
        }

        func ink(around centre: Double) -> Ink? { Self.box(of: regions, around: centre, pitch: pitch) }

        /// The ink's longer side and how far its middle lies toward the page's right (the strip's top) from the
        /// column's, both as shares of the typical glyph.
        func measure(_ ink: Ink) -> (side: Double, offset: Double) {
            (Double(max(ink.x1 - ink.x0, ink.y1 - ink.y0) + 1) / typical, (middle - Double(ink.y0 + ink.y1 + 1) / 2) / typical)
        }

        /// The line's cell (a pitch along it, its whole height) around `centre` (strip pixels).
        func cell(around centre: Double) -> RGBImage {
            let toLine = Double(line.width) / width
            let a = Int(((centre - pitch / 2) * toLine).rounded()), b = Int(((centre + pitch / 2) * toLine).rounded())
            return line.cropped(x: a, y: 0, width: b - a, height: line.height)
        }

        /// `ink` moved, on a cell of the line's background, to where horizontal writing sets a small kana: across the
        /// column's middle, its foot (its end along the line) where a typical glyph's is.
        func moved(_ ink: Ink, cellWidth: Int) -> RGBImage {
            let toLine = Double(line.width) / width, toRows = Double(line.height) / h
            let x0 = Int((Double(ink.x0) * toLine).rounded(.down)), x1 = Int((Double(ink.x1 + 1) * toLine).rounded(.up))
            let y0 = Int((Double(ink.y0) * toRows).rounded(.down)), y1 = Int((Double(ink.y1 + 1) * toRows).rounded(.up))
            let glyph = line.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            var out = RGBImage(width: cellWidth, height: line.height)
            out.fill(PPOCRWritingTest.background(line))
            let foot = Int((0.5 + 0.4 * typical / pitch) * Double(cellWidth))
            out.paste(glyph, x: foot - glyph.width, y: Int(middle * toRows) - glyph.height / 2)
            return out
        }

        static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
    }

    /// A box of ink, strip pixels, inclusive.
    struct Ink { var x0, y0, x1, y1: Int }

    /// Ink whose middle lies at least this share of the typical glyph toward the page's right of the column's is a
    /// small kana's (vertical forms: 0.07–0.23 measured; full-size glyphs −0.09–0.02).
    static let minOffset = 0.05
    /// Ink smaller than this share of the typical glyph (its longer side) is no kana: vertical small kana are 0.55–0.8
    /// of it, 、 and 。 0.3–0.4 (a 。 read upright as ぅ in the sweep's sans tategaki, twice).
    static let minKanaSide = 0.45
    /// Ink larger than this share of the typical glyph holds more than one glyph: it is read where it stands.
    static let maxMovedSide = 0.9

    /// The gaps of `text` whose left-out cells hold ink, one window of upright cells per inked cell (`ink`: the
    /// line's ink around `text`'s character centres, `LineInk(text, line:)`, on the crop `text` was read from, turned
    /// as read for a vertical line: text left to right).
    static func windows(_ text: RecognisedText, ink: LineInk) -> [Window] {
        let centres = ink.centres, pitch = ink.pitch, width = ink.width
        let background = PPOCRWritingTest.background(ink.line)   // the paper's colour, once for the line's windows
        let letters = text.characters.map { [.hiragana, .katakana, .kanji].contains(LookAlikeTwins.script($0.text)) }
        var windows: [Window] = []
        for after in -1..<centres.count {
            let end = after < 0 || after + 1 == centres.count
            let from = after < 0 ? 0 : centres[after] + pitch / 2
            let to = after + 1 < centres.count ? centres[after + 1] - pitch / 2 : width
            // Interior: the cells the spacing leaves out (at 1.5 pitches or more), a pitch each from the character
            // before (a mark's centre sits off its cell's); at a line's end, the whole cells (a quarter to spare)
            // between the character and the end, counted from the character's side.
            let count = end ? Int((to - from) / pitch + 0.25) : Int(((to - from) / pitch).rounded())
            guard count >= 1, end || centres[after + 1] - centres[after] >= 1.5 * pitch else { continue }
            for k in 0..<count {
                let offset = after < 0 ? -(Double(count - k) - 0.5) * pitch : (Double(k) + 0.5) * pitch
                let centre = (after < 0 ? to : from) + offset
                guard let box = ink.ink(around: centre) else { continue }
                let m = ink.measure(box)
                // Ink under `minKanaSide` of the typical glyph is a mark's (。 is about 0.35), left to VerticalPunctuation.
                guard m.side * ink.typical >= 0.25 * pitch, m.side >= minKanaSide else { continue }
                let small = m.offset >= minOffset
                // The characters read on each side of the cell, when it touches them and they read the same upright.
                let before = k == 0 && after >= 0 && letters[after] ? after : nil
                let next = k == count - 1 && after + 1 < centres.count && letters[after + 1] ? after + 1 : nil
                // A small kana set as vertical writing sets it (the cell's top right on the page) is moved to where
                // horizontal writing sets it, so that the row reads as the horizontal lines the recogniser knows.
                let gap = ink.cell(around: centre)
                var pieces = [small && m.side <= maxMovedSide ? ink.moved(box, cellWidth: gap.width) : gap]
                if let before { pieces.insert(ink.cell(around: centres[before]), at: 0) }
                if let next { pieces.append(ink.cell(around: centres[next])) }
                guard let image = PPOCRWritingTest.uprightCells(pieces, background: background) else { continue }
                windows.append(Window(after: after, before: before.map { text.characters[$0].text },
                                      next: next.map { text.characters[$0].text }, cells: [(centre / width, small)], image: image))
            }
        }
        // A kana read full-size whose ink lies off toward the page's right as a small kana's: read again moved to where
        // horizontal writing sets a small kana; the recogniser's reading there says its size.
        for i in centres.indices {
            guard let c = text.characters[i].text.first, text.characters[i].text.count == 1, smallForms[c] != nil,
                  let box = ink.ink(around: centres[i]) else { continue }
            let m = ink.measure(box)
            guard m.offset >= minOffset, m.side <= maxMovedSide else { continue }
            let before = i > 0 && letters[i - 1] && centres[i] - centres[i - 1] < 1.5 * pitch ? i - 1 : nil
            let next = i + 1 < centres.count && letters[i + 1] && centres[i + 1] - centres[i] < 1.5 * pitch ? i + 1 : nil
            var pieces = [ink.moved(box, cellWidth: ink.cell(around: centres[i]).width)]
            if let before { pieces.insert(ink.cell(around: centres[before]), at: 0) }
            if let next { pieces.append(ink.cell(around: centres[next])) }
            guard let image = PPOCRWritingTest.uprightCells(pieces, background: background) else { continue }
            windows.append(Window(after: i, resizes: true, before: before.map { text.characters[$0].text },
                                  next: next.map { text.characters[$0].text }, cells: [(centres[i] / width, true)], image: image))
        }
        return windows
    }

    /// `text` with the kana read in `windows` (`readings[k]` is window k's reading) inserted after the characters
    /// their gaps follow, where the reading checks out (one character per cell, the neighbours as read).
    static func merge(_ text: RecognisedText, windows: [Window], readings: [RecognisedText]) -> RecognisedText {
        guard let centres = text.characterCentres, !windows.isEmpty else { return text }
        var found: [Int: [(RecognisedText.Character, Double)]] = [:]
        var resized = text.characters
        for (window, reading) in zip(windows, readings) {
            var read = reading.characters.filter { !$0.text.allSatisfy(\.isWhitespace) }
            guard read.count == window.cells.count + (window.before == nil ? 0 : 1) + (window.next == nil ? 0 : 1) else { continue }
            if let before = window.before {
                guard read.first?.text == before else { continue }
                read.removeFirst()
            }
            if let next = window.next {
                guard read.last?.text == next else { continue }
                read.removeLast()
            }
            if window.resizes {
                // The size only: the kana read again as its own small form.
                if let c = resized[window.after].text.first, let small = smallForms[c], read.count == 1,
                   read[0].text == String(small), read[0].confidence >= minConfidence {
                    resized[window.after].text = String(small)
                    resized[window.after].foundBy = foundBy
                }
                continue
            }
            for (character, cell) in zip(read, window.cells) where character.confidence >= minConfidence {
                // A neighbour read again (its ink reaching into the cell) is no character of the cell's own.
                guard let form = form(of: character.text, small: cell.small), form != window.before, form != window.next else { continue }
                found[window.after, default: []].append((.init(text: form, confidence: character.confidence, foundBy: foundBy), cell.centre))
            }
        }
        guard !found.isEmpty || resized != text.characters else { return text }
        var characters = found[-1]?.map(\.0) ?? [], positions = found[-1]?.map(\.1) ?? []
        for i in text.characters.indices {
            characters.append(resized[i])
            positions.append(centres[i])
            for (character, centre) in found[i] ?? [] {
                characters.append(character)
                positions.append(min(1, centre))
            }
        }
        return RecognisedText(characters: characters, characterCentres: positions)
    }

    /// Small kana and their full-size twins (hiragana and katakana).
    static let smallForms: [Character: Character] = {
        var forms: [Character: Character] = [:]
        for (large, small) in zip("あいうえおつやゆよわアイウエオツヤユヨワカケ", "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ") { forms[large] = small }
        return forms
    }()
    static let smallKana = Set(smallForms.values)

    /// What a character read for a left-out cell goes in as: a kana, in its small form when its ink is `small` and it
    /// has one; nil for anything else (a left-out cell that reads as a kanji, a digit or a mark is left to the other
    /// rules; ー is `VerticalPunctuation`'s).
    static func form(of text: String, small: Bool) -> String? {
        guard text.count == 1, let c = text.first, c != "ー", [.hiragana, .katakana].contains(LookAlikeTwins.script(text)) else { return nil }
        if small, let s = smallForms[c] { return String(s) }
        return text
    }
}
