/// The reading order stage of the `ppocr` mode (`PageOrderer`), over the passes of `Order/`.
///
/// `OCRConfiguration.ReadingOrderStyle.page` (default): the page's skew estimated from its lines' outlines (`SkewEstimate`), ruby
/// found beside its body lines (`RubyLayout`), the body lines put in order by XY-cut in the deskewed frame
/// (`PageFrame`) with leaves sorted by writing direction (`XYCut.LeafOrder.byOrientation`), each ruby line placed
/// right after the line it annotates (in the order of the characters annotated). `OCRConfiguration.ReadingOrderStyle.ndl`: every
/// line (ruby included, still marked) by NDL's XY-cut over the axis-aligned boxes, no skew. Source:
/// docs/reference-pipelines.md §1.4, §4 ("Where KotenOCR deviates").
package struct PageFrameOrder: PageOrderer {
    public var style: OCRConfiguration.ReadingOrderStyle

    public init(style: OCRConfiguration.ReadingOrderStyle = .page) { self.style = style }

    public func order(_ lines: [PageOrder.Line]) -> PageOrder.Ordering {
        guard !lines.isEmpty else { return PageOrder.Ordering(order: []) }
        let skew = style == .page ? SkewEstimate.angle(of: lines.map(\.quad.points)) : 0
        let frame = PageFrame(skew: skew)
        let framed = lines.map { Self.rubyLine($0, frame: frame) }
        let links = RubyLayout.links(framed)
        let ruby = links.mapValues { PageResult.RubyTarget(line: $0.line, start: $0.start, end: $0.end) }
        guard style == .page else {  // NDL's XY-cut over the axis-aligned boxes, ruby in its place
            let boxes = lines.map { l -> PixelBox in
                let b = l.quad.bounds
                return PixelBox(x1: b.x0, y1: b.y0, x2: b.x1, y2: b.y1)
            }
            return PageOrder.Ordering(order: Self.ranked(Array(lines.indices), XYCut.readingRanks(of: boxes)), ruby: ruby)
        }
        let body = lines.indices.filter { links[$0] == nil }
        let ranks = XYCut.readingRanks(of: body.map { framed[$0].box }, leafOrder: .byOrientation)
        let rubyOf = Dictionary(grouping: links.keys, by: { links[$0]?.line ?? -1 })
        let order = Self.ranked(body, ranks).flatMap { b in
            [b] + (rubyOf[b] ?? []).sorted { (links[$0]?.start ?? 0, $0) < (links[$1]?.start ?? 0, $1) }
        }
        return PageOrder.Ordering(order: order, ruby: ruby, skew: skew)
    }

    /// `items` sorted by their ranks (ties by index).
    private static func ranked(_ items: [Int], _ ranks: [Int]) -> [Int] {
        items.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }.map { items[$0] }
    }

    /// The line as ruby finding sees it in `frame`: its box, its writing direction (the reading axis there) and
    /// its characters' centres along it.
    private static func rubyLine(_ line: PageOrder.Line, frame: PageFrame) -> RubyLayout.Line {
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
