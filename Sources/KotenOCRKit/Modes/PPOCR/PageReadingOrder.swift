import Foundation

/// A `ppocr` line as read, in the upright page: what the order stage and the result need.
struct PPOCRReadLine: Sendable {
    /// Outline in upright-page pixels, corners clockwise from its top-left.
    var quad: Quad
    var text: RecognisedText
    /// Where reading starts and ends along the line (the middles of its first and last edges, upright pixels).
    var start: Point
    var end: Point
    /// From the upright outline's geometry (`LineOrientation`).
    var orientation: LineOrientation
    var score: Float
}

/// The reading order stage of the `ppocr` mode: the page's skew estimated from its lines' outlines
/// (`SkewEstimate`), ruby found beside its body lines (`RubyLayout`), the body lines put in order by XY-cut in the
/// deskewed frame with leaves sorted by writing direction, each ruby line placed right after the line it
/// annotates. `ReadingOrderStyle.ndl`: every line (ruby included, still marked) by NDL's XY-cut over the
/// axis-aligned boxes, as before this stage existed. Source: docs/reference-pipelines.md §1.4 and "Where
/// KotenOCR deviates".
enum PageReadingOrder {
    /// `lines` as the page's result lines, in reading order, and the skew undone (radians, `SkewEstimate`; 0 for
    /// the `ndl` style).
    static func ordered(_ lines: [PPOCRReadLine], style: ReadingOrderStyle) -> (lines: [PageResult.TextLine], skew: Double) {
        guard !lines.isEmpty else { return ([], 0) }
        let skew = style == .page ? SkewEstimate.angle(of: lines.map(\.quad.points)) : 0
        let frame = PageFrame(skew: skew)
        let rubyLines = lines.map { rubyLine($0, frame: frame) }
        let links = RubyLayout.links(rubyLines)
        let order: [Int]
        switch style {
        case .ndl:
            let boxes = lines.map { l -> PixelBox in
                let b = l.quad.bounds
                return PixelBox(x1: b.x0, y1: b.y0, x2: b.x1, y2: b.y1)
            }
            order = ranked(Array(lines.indices), XYCut.readingRanks(of: boxes))
        case .page:
            let body = lines.indices.filter { links[$0] == nil }
            let ranks = XYCut.readingRanks(of: body.map { rubyLines[$0].box }, leafOrder: .byOrientation)
            let rubyOf = Dictionary(grouping: links.keys, by: { links[$0]?.base ?? -1 })
            order = ranked(body, ranks).flatMap { b in
                [b] + (rubyOf[b] ?? []).sorted { (links[$0]?.start ?? 0, $0) < (links[$1]?.start ?? 0, $1) }
            }
        }
        var position = [Int](repeating: 0, count: lines.count)
        for (p, i) in order.enumerated() { position[i] = p }
        let result = order.enumerated().map { p, i -> PageResult.TextLine in
            let annotates = links[i].map { PageResult.RubyTarget(line: position[$0.base], start: $0.start, end: $0.end) }
            return PageResult.TextLine(lines[i], readingOrder: p, annotates: annotates)
        }
        return (result, skew)
    }

    /// `items` sorted by their ranks (ties by index).
    private static func ranked(_ items: [Int], _ ranks: [Int]) -> [Int] {
        items.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }.map { items[$0] }
    }

    /// The line as ruby finding sees it in `frame`: its box, its writing direction (the reading axis there) and
    /// its characters' centres along it.
    private static func rubyLine(_ line: PPOCRReadLine, frame: PageFrame) -> RubyLayout.Line {
        let s = frame.map(line.start), e = frame.map(line.end)
        let vertical = abs(e.y - s.y) > abs(e.x - s.x)
        let centres = line.text.characterCentres.map { fractions in
            fractions.map { f in vertical ? s.y + f * (e.y - s.y) : s.x + f * (e.x - s.x) }
        }
        return RubyLayout.Line(box: frame.box(of: line.quad.points), vertical: vertical, characterCentres: centres,
                               characterCount: line.text.characters.count,
                               kanaCount: line.text.characters.filter { RubyLayout.isKana($0.text) }.count)
    }
}
