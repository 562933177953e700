/// How a `ppocr` page is turned, and so how each of its lines is turned before it is read.
///
/// The page's **text turn** T (quarter turns counter-clockwise that bring its main lines to text running left to
/// right) comes from two things: the shape of its lines (most of the line length in boxes at least 1.5× as tall as
/// wide: T is odd) and the orientation classifier's votes on its longest main lines, turned as T's parity says
/// (most of them upside down: T + 2). Main lines are turned T quarter turns; lines across them (a horizontal
/// heading on a vertical page) one more or one less, as the page's writing says, then the classifier's 0°/180°
/// decides for each of them as PP-OCR does line by line; near-square lines on a page of odd T (one or two
/// characters) are read both ways and the more confident reading kept.
///
/// A horizontal page turned 90° clockwise and an upright vertical page have the same T: their main lines are cut
/// and turned the same way and read in the same order (columns right to left are the turned page's lines top to
/// bottom), so the text and its order do not depend on telling them apart. Which one a page is only changes the
/// `rotation` reported and the coordinates (mapped into the upright page); `PPOCRWritingTest` decides it from the
/// recogniser's confidence on glyph cells turned upright. Source: docs/reference-pipelines.md §4 "Where KotenOCR
/// deviates"; issue 11.
struct PPOCRPageOrientation: Sendable, Equatable {
    /// Quarter turns counter-clockwise (0–3) that bring the main lines' text upright, running left to right.
    var textTurn: Int
    /// The body is written vertically (in the upright page).
    var vertical: Bool

    /// How the page as given is turned from upright.
    var rotation: PageRotation { PageRotation(quarterTurns: vertical ? textTurn - 1 : textTurn) }

    /// The orientation of a page known to be turned by `rotation` whose main lines are tall in the page as given
    /// (`tallMain`): its writing follows from the lines' shape upright.
    init(rotation: PageRotation, tallMain: Bool) {
        let verticalUpright = tallMain != rotation.swapsSides
        textTurn = (rotation.quarterTurns + (verticalUpright ? 1 : 0)) % 4
        vertical = verticalUpright
    }

    init(textTurn: Int, vertical: Bool) {
        self.textTurn = (textTurn % 4 + 4) % 4
        self.vertical = vertical
    }

    /// The reading of `evidence` whose main lines were turned as an upright page of this page's line shapes turns
    /// them (text turn 0 or 1: this page's parity), whatever rotation the writing test made of it; nil when there is none.
    func uprightSample(_ evidence: PageResult.RotationEvidence?) -> PageResult.RotationEvidence.Reading? {
        evidence?.readings.first { r in
            (r.rotation / 90 + (vertical ? 1 : 0)) % 4 == textTurn % 2
        }
    }

    /// The shape of a line crop (`width` × `height` in the page as given) against the page's main lines.
    enum Shape: Equatable { case main, across, square }

    func shape(width: Int, height: Int) -> Shape {
        let tall = Double(height) >= 1.5 * Double(width), wide = Double(width) >= 1.5 * Double(height)
        if !tall && !wide { return .square }
        return tall == (textTurn % 2 == 1) ? .main : .across
    }

    /// Quarter turns counter-clockwise for a main (or square) line.
    var mainTurns: Int { textTurn }
    /// Quarter turns counter-clockwise for a line across the main lines, before the classifier's say: a vertical
    /// line on a horizontal page is turned one more (as PP-OCR turns tall crops), a horizontal line on a vertical
    /// page one less.
    var acrossTurns: Int { (textTurn + (vertical ? 3 : 1)) % 4 }

    /// Whether most of the line length is in tall boxes (`width` × `height` crops in the page as given; lengths
    /// are the long sides; near-square boxes do not count).
    static func tallMain(_ sizes: [(width: Int, height: Int)]) -> Bool {
        var tall = 0, wide = 0
        for s in sizes {
            if Double(s.height) >= 1.5 * Double(s.width) { tall += s.height }
            if Double(s.width) >= 1.5 * Double(s.height) { wide += s.width }
        }
        return tall > wide
    }

    /// The page's orientation from its lines' shape and the classifier's votes (`upsideDown`: the length-weighted
    /// share of upside-down probability on the main lines, nil when there are none): T is odd when the main lines
    /// are tall, plus 2 when the votes say upside down; the writing is horizontal for even T, vertical for odd T
    /// (an upright or upside-down page, the common case) unless `PPOCRWritingTest` says otherwise.
    static func fromVotes(tallMain: Bool, upsideDown: Double?) -> PPOCRPageOrientation {
        let flipped = (upsideDown ?? 0) > 0.5
        let turn = (tallMain ? 1 : 0) + (flipped ? 2 : 0)
        return PPOCRPageOrientation(textTurn: turn, vertical: tallMain)
    }
}
