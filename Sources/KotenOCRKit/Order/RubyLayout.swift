/// Ruby (furigana): which lines of a page are readings printed beside a body line, and which characters of that
/// line they annotate. Pure geometry in the frame the order is made in (upright, deskewed).
///
/// A line R is ruby of a body line B when, against B's writing direction:
/// - R reads as kana: at least `minKana` (75 %) of its characters are hiragana, katakana or ー (furigana are
///   readings; a small heading or caption above a line is not);
/// - R is set small: its length per character is at most `maxPitch` (0.8) × B's (ruby is usually set at half the
///   body's size, but spread along its base: four kana over three kanji measure 0.75, their box a little more;
///   characters the recogniser drops only make the ratio larger: 0.75 held while the 、 and 。 of vertical lines were
///   dropped, `VerticalPunctuation`), and its extent across B's
///   direction at most `maxThickness` (0.8) × B's thickness (the detector's box of a short line of body text can
///   be thinner than its neighbours', its characters are not smaller);
/// - R sits on B's ruby side, close: right of a vertical B, above a horizontal B, the gap between them between
///   −0.35 and +0.6 × B's thickness (detector boxes of ruby often overlap their base a little);
/// - R lies along part of B: at least 60 % of R's length overlaps B's, and R is shorter than B;
/// - R runs along B, or is short enough (at most 1.5 × as long as thick) to be one or two characters.
/// Of several such B, the closest. A line that is some line's base is never ruby itself. Readings beside the
/// other side (left of vertical text, below horizontal text) are not taken for ruby.
///
/// The characters annotated are those of B whose centres (`characterCentres`, else evenly spaced) lie within R's
/// extent along B, i.e. at least half of whose cell R covers (ruby longer than its base overhangs it by at most
/// half a character, so a neighbour's centre stays outside); when none does, the one nearest R's middle.
enum RubyLayout {
    /// A line as ruby finding sees it.
    struct Line {
        /// The line's box in the frame (xyxy pixels).
        var box: PixelBox
        /// The line is written vertically (its text runs down the frame).
        var vertical: Bool
        /// Each character's centre along the line's writing direction, in frame pixels (y for a vertical line,
        /// x for a horizontal one); nil when unknown (characters are then taken as evenly spaced).
        var characterCentres: [Double]?
        /// Number of characters read.
        var characterCount: Int
        /// How many of them are kana (hiragana, katakana, ー).
        var kanaCount: Int
    }

    /// What a ruby line annotates: the body line `line` (its index among the lines given) and its characters
    /// `start..<end` (the order stage hands it on as `PageResult.RubyTarget`).
    struct Link: Equatable {
        var line: Int
        var start: Int
        var end: Int
    }

    static let maxThickness = 0.8
    static let maxPitch = 0.8
    static let minKana = 0.75

    /// Whether `text` (one character) is hiragana, katakana or the prolonged sound mark.
    static func isKana(_ text: String) -> Bool {
        guard let s = text.unicodeScalars.first, text.unicodeScalars.count == 1 else { return false }
        switch s.value {
        case 0x3041...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return true
        default: return false
        }
    }

    /// The ruby lines of `lines` (by index) and what each annotates (`line`: the body line's index).
    static func links(_ lines: [Line]) -> [Int: Link] {
        var found: [Int: (base: Int, gap: Double)] = [:]
        for (r, ruby) in lines.enumerated()
        where ruby.characterCount > 0 && Double(ruby.kanaCount) >= minKana * Double(ruby.characterCount) {
            for (b, base) in lines.enumerated() where b != r && base.characterCount > 0 {
                guard let gap = gap(ruby: ruby, base: base) else { continue }
                if let best = found[r], abs(best.gap) <= abs(gap) { continue }
                found[r] = (b, gap)
            }
        }
        // A base is body text: drop ruby found for a line that is itself some ruby's base.
        let bases = Set(found.values.map(\.base))
        var links: [Int: Link] = [:]
        for (r, match) in found where !bases.contains(r) {
            let range = annotated(ruby: lines[r], base: lines[match.base])
            links[r] = Link(line: match.base, start: range.lowerBound, end: range.upperBound)
        }
        return links
    }

    /// The gap between `ruby` and `base` across the base's direction when `ruby` is ruby of it, else nil.
    private static func gap(ruby: Line, base: Line) -> Double? {
        let across = span(ruby.box, along: !base.vertical), baseAcross = span(base.box, along: !base.vertical)
        let along = span(ruby.box, along: base.vertical), baseAlong = span(base.box, along: base.vertical)
        let thickness = baseAcross.1 - baseAcross.0, rubyThickness = across.1 - across.0
        let length = along.1 - along.0, baseLength = baseAlong.1 - baseAlong.0
        guard thickness > 0, length > 0, rubyThickness > 0, rubyThickness <= maxThickness * thickness else { return nil }
        guard length < baseLength, overlap(along, baseAlong) >= 0.6 * length else { return nil }
        let pitch = length / Double(ruby.characterCount), basePitch = baseLength / Double(base.characterCount)
        guard pitch <= maxPitch * basePitch else { return nil }
        guard ruby.vertical == base.vertical || length <= 1.5 * rubyThickness else { return nil }
        // Vertical base: ruby to its right (gap from the base's right edge); horizontal: above (to its top edge).
        let gap = base.vertical ? across.0 - baseAcross.1 : baseAcross.0 - across.1
        guard gap >= -0.35 * thickness, gap <= 0.6 * thickness else { return nil }
        // The ruby's middle must be on the ruby side of the base's middle.
        let middle = (across.0 + across.1) / 2, baseMiddle = (baseAcross.0 + baseAcross.1) / 2
        guard base.vertical ? middle > baseMiddle : middle < baseMiddle else { return nil }
        return gap
    }

    /// The characters of `base` that `ruby` annotates.
    private static func annotated(ruby: Line, base: Line) -> Range<Int> {
        let along = span(ruby.box, along: base.vertical), baseAlong = span(base.box, along: base.vertical)
        let n = base.characterCount
        let pitch = (baseAlong.1 - baseAlong.0) / Double(n)
        let centres = base.characterCentres ?? (0..<n).map { baseAlong.0 + (Double($0) + 0.5) * pitch }
        let inside = centres.indices.filter { centres[$0] >= along.0 && centres[$0] <= along.1 }
        if let first = inside.first, let last = inside.last { return first..<(last + 1) }
        let middle = (along.0 + along.1) / 2
        let nearest = centres.indices.min { abs(centres[$0] - middle) < abs(centres[$1] - middle) } ?? 0
        return nearest..<(nearest + 1)
    }

    /// The box's extent along y (`vertical`) or x.
    private static func span(_ b: PixelBox, along vertical: Bool) -> (Double, Double) {
        vertical ? (Double(b.y1), Double(b.y2)) : (Double(b.x1), Double(b.x2))
    }

    private static func overlap(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        max(0, min(a.1, b.1) - max(a.0, b.0))
    }
}
