/// A second look at the lines PP-OCRv5's recogniser read unsure: each is cut again with a margin around its box
/// and read again, and the more confident of the two readings is kept unless it reads fewer characters
/// (docs/reference-pipelines.md §4, "Step 4, second look").
///
/// Why: the DB box of a line ends at the edge of its ink, so a mark set apart at its end (、 after a handwritten
/// line) sits at the crop's edge and the model reads it or not by a pixel; a character read between two
/// look-alikes flips as the box moves by a pixel or two (RapidOCR, on the same weights, reads another set of lines
/// right only because its boxes are larger). One fixed larger box moves as many lines the wrong way as the right
/// one (`make quality`: ±5 points a page); asking the model which of two crops it reads better does not. Lines
/// read at `confident` or above, and lines under the junk threshold (`minLineConfidence`: specks, figure
/// marks), are not read again, so a clean page costs nothing.
///
/// Memory: the page is never whole a second time. When the budget is not tight the crops are cut from the page as
/// decoded for the first crops, kept through the first recognition for them (no decode again); under a tight
/// budget that page is gone before recognition and the file is decoded again, strip by strip
/// (`ImageSource.decodeRegions`), keeping only the rectangles around the grown boxes.
enum SecondLook {
    /// Lines read with a lower confidence are read again.
    static let confident: Float = 0.95
    /// The margin along the line, at each end, × the line's thickness.
    static let alongMargin = 0.3
    /// The margin across the line, on each side, × the line's thickness.
    static let acrossMargin = 0.2

    /// The lines of `readings` to read again: read with a confidence in [`minConfidence`, `confident`).
    static func lines(_ readings: [RecognisedText], minConfidence: Float) -> [Int] {
        readings.indices.filter { i in
            guard let c = readings[i].confidence, !readings[i].text.allSatisfy(\.isWhitespace) else { return false }
            return c >= minConfidence && c < confident
        }
    }

    /// `quad` (corners clockwise from its top-left) grown by the margins along and across its text, which runs
    /// along its height when `vertical`; and the margin along, in page pixels.
    static func grown(_ quad: Quad, vertical: Bool) -> (quad: Quad, along: Double) {
        let p = quad.points
        func unit(_ a: Point, _ b: Point) -> Point {
            let d = a.distance(to: b)
            return d > 0 ? Point(x: (b.x - a.x) / d, y: (b.y - a.y) / d) : Point(x: 0, y: 0)
        }
        let ux = unit(p[0], p[1]), uy = unit(p[0], p[3])
        let thickness = vertical ? quad.edgeWidth : quad.edgeHeight
        let mx = thickness * (vertical ? acrossMargin : alongMargin)
        let my = thickness * (vertical ? alongMargin : acrossMargin)
        func moved(_ q: Point, _ sx: Double, _ sy: Double) -> Point {
            Point(x: q.x + sx * mx * ux.x + sy * my * uy.x, y: q.y + sx * mx * ux.y + sy * my * uy.y)
        }
        let grown = Quad(moved(p[0], -1, -1), moved(p[1], 1, -1), moved(p[2], 1, 1), moved(p[3], -1, 1))
        return (grown, vertical ? my : mx)
    }

    /// The crops of `quads` (page pixels, corners clockwise from the top-left): each from the rectangle around its
    /// quad (one pixel more on every side, for bilinear sampling), so it holds the pixels
    /// `perspectiveCrop(page.decode(), quad:)` would give. The rectangles are cut from `decoded` (the page as
    /// decoded for the first crops) when it is given, else from `page` decoded again strip by strip; either way
    /// the same pixels, sampled the same way. The crops are warped on up to `threads` threads at once.
    /// Throws `ImageError` naming the file.
    static func crops(of quads: [Quad], from page: ImageSource, decoded: RGBImage? = nil, threads: Int = 1) throws -> [RGBImage] {
        let boxes = quads.map { q -> PixelBox in
            let b = q.bounds
            return LineCrop.clamped(PixelBox(x1: b.x0 - 1, y1: b.y0 - 1, x2: b.x1 + 2, y2: b.y1 + 2),
                                    imageWidth: page.width, imageHeight: page.height)
        }
        let regions = try decoded.map { image in boxes.map { image.cropped(x: $0.x1, y: $0.y1, width: $0.width, height: $0.height) } }
            ?? page.decodeRegions(boxes)
        return try parallelMap(Array(zip(quads, zip(boxes, regions))), threads: threads) { quad, cut in
            let (box, region) = cut
            let dx = Double(box.x1), dy = Double(box.y1)
            let p = quad.points.map { Point(x: $0.x - dx, y: $0.y - dy) }
            return perspectiveCrop(region, quad: Quad(p[0], p[1], p[2], p[3]))
        }
    }

    /// The reading to keep: `second` (of the grown box, `margin` page pixels longer at each end of a line
    /// `length` long) when it is more confident than `first` and reads no fewer characters (white space aside),
    /// its character centres taken back to the line's own length; else `first`. A mean confidence rises when
    /// an unsure character is dropped (サービス at 0.907, サビス at 0.947): a shorter reading never wins on it.
    static func better(_ first: RecognisedText, _ second: RecognisedText, margin: Double, length: Double) -> RecognisedText {
        func count(_ r: RecognisedText) -> Int { r.characters.filter { !$0.text.allSatisfy(\.isWhitespace) }.count }
        guard let c2 = second.confidence, c2 > (first.confidence ?? -1), count(second) >= count(first), length > 0
        else { return first }
        var kept = second
        kept.characterCentres = second.characterCentres.map { fractions in
            fractions.map { min(1, max(0, ($0 * (length + 2 * margin) - margin) / length)) }
        }
        return kept
    }
}
