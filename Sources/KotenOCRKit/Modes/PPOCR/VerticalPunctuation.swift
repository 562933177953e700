/// The 、 and 。 of vertical writing, and its long-vowel mark ー, which PP-OCRv5's recogniser passes over, found
/// again in the line's own pixels (docs/reference-pipelines.md §4, "Step 4, vertical punctuation").
///
/// Why: a vertical line is read turned a quarter counter-clockwise, its glyphs lying on their side, and in vertical
/// writing 、 and 。 sit in the top-right corner of their own cell, where the model, trained on such lines, does not
/// emit them: `make quality`'s vertical page (Noto Serif CJK, every mark clear) read every character and not one
/// of its 21 marks, and NDL's `geppo1803_00021` page lost 39. It drops ー in vertical katakana words too
/// (インタネト for インターネット). Tesseract's `jpn_vert` reads them; RapidOCR, on the same weights, drops them.
///
/// The rule, on the line as the recogniser saw it (turned, scaled to height H = 48): the characters' CTC centres
/// give the line's pitch (the lower median of their spacings, within 0.4–1.5 H). Where the centres leave a cell
/// out (the next centre ≥ 1.5 pitches on; after the last one, ≥ 0.75 pitch before the line's end), a connected
/// region of ink (Otsu's split of the grey line) whose centre is there, that lies within the gap (0.1 pitch to
/// spare) and has no other ink of the gap within 0.2 pitch of it, is
/// - a mark when it is 0.1–0.3 H across, fills ≥ 30 % of its box and has its centre within 0.42 H of the turned
///   line's top (the cell's right side on the page; an ellipsis' dots sit in the middle): 。 when it encloses
///   background (a ring) or lies evenly about both diagonals of its box (a ring whose hole closed in a coarse
///   scan), 、 when it lies along one diagonal;
/// - ー when it follows a kana and is a bar down the middle of its cell on the page: 0.45–1.1 pitch along the
///   turned line, at most 0.2 H thick, its centre within 0.2 H of the line's middle.
/// A character the model dropped is larger, or in pieces, and is left alone, as is a gap with no ink (spaced-out
/// ruby, the end of a column).
enum VerticalPunctuation {
    /// The height the line is measured at: the recogniser's input height.
    static let height = PPOCRRecogniser.height
    /// What a mark found here says in its character's `foundBy`.
    static let foundBy = "verticalPunctuation"

    /// `text` with the marks found in `line` inserted where they stand. `line` is the crop the text was read from,
    /// turned as it was for reading (a quarter counter-clockwise: text running left to right, the page's right
    /// side up); `text.characterCentres` must place its characters on it (nil: `text` is returned as it is). An
    /// inserted mark takes the line's confidence (so the line's is unchanged) and its cell's centre.
    static func restore(_ text: RecognisedText, line: RGBImage) -> RecognisedText {
        let text = graveAsComma(text)
        guard let fractions = text.characterCentres, !text.characters.isEmpty, let confidence = text.confidence,
              line.width > 0, line.height > 0 else { return text }
        let strip = bilinearResize(line, width: PPOCRRecogniser.inputWidth(line), height: height)
        let marks = find(in: strip, centres: fractions.map { $0 * Double(strip.width) }, read: text.characters.map(\.text))
        guard !marks.isEmpty else { return text }
        var characters: [RecognisedText.Character] = [], centres: [Double] = []
        for i in text.characters.indices {
            characters.append(text.characters[i])
            centres.append(fractions[i])
            for mark in marks[i] ?? [] {
                characters.append(.init(text: mark.text, confidence: confidence, foundBy: foundBy))
                centres.append(min(1, mark.centre / Double(strip.width)))
            }
        }
        return RecognisedText(characters: characters, characterCentres: centres)
    }

    /// `text` with a grave accent (` or ｀) after a kana or kanji read as 、 (`foundBy` says so): a vertical 、, in the
    /// top right of its cell, lies turned as a short stroke from the top left, and the recogniser reads it so at times
    /// (the sweep's sans tategaki: いれば、切符 read いれば`切符 on four pages). No vertical Japanese line holds a grave.
    static func graveAsComma(_ text: RecognisedText) -> RecognisedText {
        var characters = text.characters, changed = false
        for i in characters.indices where characters[i].text == "`" || characters[i].text == "｀" {
            guard let before = characters[..<i].last(where: { !$0.text.allSatisfy(\.isWhitespace) }),
                  [.hiragana, .katakana, .kanji].contains(LookAlikeTwins.script(before.text)) else { continue }
            characters[i].text = "、"
            characters[i].foundBy = foundBy
            changed = true
        }
        return changed ? RecognisedText(characters: characters, characterCentres: text.characterCentres) : text
    }

    /// The marks in `strip` (height `height`), keyed by the index of the character they follow, in order along
    /// the strip; `centres` in pixels along the strip, in reading order, of the characters `read` (the same count).
    static func find(in strip: RGBImage, centres: [Double], read: [String]) -> [Int: [(text: String, centre: Double)]] {
        let h = Double(strip.height), width = strip.width
        guard !centres.isEmpty, width > 0, strip.height > 0 else { return [:] }
        let pitch = pitch(centres, height: h)
        let ink = inkMask(strip)
        let regions = connectedRegions(mask: ink, width: width, height: strip.height)
            .filter { $0.pixelCount >= 3 }.map(Box.init)
        var marks: [Int: [(text: String, centre: Double)]] = [:]
        for i in centres.indices {
            // Cells left out between two characters; after the last, the line's end (the detector's box ends at
            // the ink, so a final 。 ends it).
            let last = i + 1 == centres.count
            let a = centres[i] + 0.45 * pitch, b = last ? Double(width) + 0.05 * pitch : centres[i + 1] - 0.45 * pitch
            guard b - a >= (last ? 0.3 : 0.6) * pitch else { continue }
            let afterKana = i < read.count && [.hiragana, .katakana].contains(LookAlikeTwins.script(read[i]))
            for r in regions.filter({ a <= $0.centreX && $0.centreX <= b }).sorted(by: { $0.x0 < $1.x0 }) {
                guard Double(r.x0) >= a - 0.1 * pitch, Double(r.x1 + 1) <= b + 0.1 * pitch else { continue }
                let side = Double(max(r.width, r.height)), fill = Double(r.pixels) / Double(r.width * r.height)
                // The long-vowel mark, a bar down the middle of its cell on the page: along the turned line, thin,
                // across its middle, after a kana.
                let bar = afterKana && Double(r.width) >= 0.45 * pitch && Double(r.width) <= 1.1 * pitch
                    && Double(r.height) <= 0.2 * h && abs(r.centreY - h / 2) <= 0.2 * h
                let mark = side <= 0.3 * h && side >= 0.1 * h && r.centreY < 0.42 * h && fill >= 0.3
                guard bar || mark else { continue }
                // Alone: other ink of the gap beside it is a character the model dropped, or part of one.
                let beside = (Double(r.x0) - 0.2 * pitch)...(Double(r.x1 + 1) + 0.2 * pitch)
                guard !regions.contains(where: { o in
                    (o.x0 != r.x0 || o.y0 != r.y0) && a <= o.centreX && o.centreX <= b
                        && beside.overlaps(Double(o.x0)...Double(o.x1 + 1))
                }) else { continue }
                // A ring's hole closes at this scale in a coarse scan: a round dot is 。 too; 、 is a stroke along
                // one diagonal of its box.
                let text = bar ? "ー" : hasHole(ink, width: width, box: r) || diagonalBalance(ink, width: width, box: r) < 1.5 ? "。" : "、"
                marks[i, default: []].append((text, r.centreX))
            }
        }
        return marks
    }

    /// The line's pitch (strip pixels) from its characters' centres (`centres`, in order) on a strip `height` high:
    /// the lower median of their spacings (where half the spacings span a cell left out, as in 春、夏、秋、冬。, the
    /// upper one is two cells), kept within 0.4–1.5 × `height`; `height` for fewer than three characters.
    static func pitch(_ centres: [Double], height h: Double) -> Double {
        let gaps = zip(centres, centres.dropFirst()).map { $1 - $0 }.sorted()
        return min(1.5 * h, max(0.4 * h, centres.count >= 3 ? gaps[(gaps.count - 1) / 2] : h))
    }

    /// A region's bounding box (inclusive) and pixel count.
    struct Box {
        let x0, y0, x1, y1, pixels: Int
        init(_ region: ConnectedRegion) {
            x0 = region.rows.map(\.minX).min() ?? 0
            x1 = region.rows.map(\.maxX).max() ?? 0
            y0 = region.rows.first?.y ?? 0
            y1 = region.rows.last?.y ?? 0
            pixels = region.pixelCount
        }
        var width: Int { x1 - x0 + 1 }
        var height: Int { y1 - y0 + 1 }
        var centreX: Double { Double(x0) + Double(width) / 2 }
        var centreY: Double { Double(y0) + Double(height) / 2 }
    }

    /// Ink: the dark class of Otsu's split of the grey image (ITU-R 601 luma, OpenCV's weights): at or below its threshold.
    static func inkMask(_ image: RGBImage) -> [Bool] {
        var grey = [UInt8](repeating: 0, count: image.width * image.height)
        var histogram = [Int](repeating: 0, count: 256)
        image.pixels.withUnsafeBufferPointer { p in
            for i in grey.indices {
                let y = (299 * Int(p[3 * i]) + 587 * Int(p[3 * i + 1]) + 114 * Int(p[3 * i + 2]) + 500) / 1000
                grey[i] = UInt8(min(255, y))
                histogram[Int(grey[i])] += 1
            }
        }
        let threshold = otsuThreshold(histogram)
        return grey.map { Int($0) <= threshold }
    }

    /// The grey level that best splits `histogram` in two (Otsu: the largest between-class variance); the dark
    /// class is the levels at or below it.
    static func otsuThreshold(_ histogram: [Int]) -> Int {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return 0 }
        let sum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var best = 0, bestVariance = -1.0, dark = 0, darkSum = 0.0
        for level in 0..<255 {
            dark += histogram[level]
            darkSum += Double(level * histogram[level])
            let light = total - dark
            guard dark > 0, light > 0 else { continue }
            let meanDark = darkSum / Double(dark), meanLight = (sum - darkSum) / Double(light)
            let variance = Double(dark) * Double(light) * (meanDark - meanLight) * (meanDark - meanLight)
            if variance > bestVariance { (best, bestVariance) = (level, variance) }
        }
        return best
    }

    /// How much more of the ink in `box` lies along one of its diagonals than along the other (the ink within
    /// 0.3 of each diagonal, the box scaled to a unit square): about 1 for a ring or a dot, 2 and more for 、.
    static func diagonalBalance(_ ink: [Bool], width: Int, box: Box) -> Double {
        let w = Double(max(1, box.width - 1)), h = Double(max(1, box.height - 1))
        var along = 0.0, across = 0.0
        for y in 0..<box.height { for x in 0..<box.width where ink[(box.y0 + y) * width + box.x0 + x] {
            let u = Double(x) / w, v = Double(y) / h
            if abs(u - v) < 0.3 { along += 1 }
            if abs(u + v - 1) < 0.3 { across += 1 }
        } }
        return max(along, across) / max(1, min(along, across))
    }

    /// Whether the ink in `box` encloses background: background pixels of the box that a 4-connected fill from the
    /// box's border does not reach (at least 2, as a ring's hole at this scale is).
    static func hasHole(_ ink: [Bool], width: Int, box: Box) -> Bool {
        let w = box.width, h = box.height
        var reached = [Bool](repeating: false, count: w * h)
        var stack: [Int] = []
        func background(_ x: Int, _ y: Int) -> Bool { !ink[(box.y0 + y) * width + box.x0 + x] }
        for y in 0..<h { for x in 0..<w where (x == 0 || y == 0 || x == w - 1 || y == h - 1) && background(x, y) {
            reached[y * w + x] = true
            stack.append(y * w + x)
        } }
        while let k = stack.popLast() {
            let x = k % w, y = k / w
            for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < w && ny < h {
                let j = ny * w + nx
                if !reached[j] && background(nx, ny) {
                    reached[j] = true
                    stack.append(j)
                }
            }
        }
        let enclosed = (0..<(w * h)).filter { !reached[$0] && background($0 % w, $0 / w) }.count
        return enclosed >= 2
    }
}
