/// A `ppocr` line as read: the order stage's input and what the result needs besides.
struct PPOCRReadLine: Sendable {
    var line: PageOrder.Line
    /// From the upright outline's geometry (`LineOrientation`).
    var orientation: LineOrientation
    var score: Float
    /// Read with a confidence under the pipeline's minimum: kept in the JSON only (`TextLine.lowConfidence`).
    var lowConfidence = false

    /// A line as read, or nil when its text is empty (or only white space): a box the recogniser finds nothing
    /// in is no line. Flagged `lowConfidence` when its confidence is under `minConfidence`.
    init?(line: PageOrder.Line, orientation: LineOrientation, score: Float, minConfidence: Float) {
        guard !line.text.text.allSatisfy(\.isWhitespace) else { return nil }
        self.line = line
        self.orientation = orientation
        self.score = score
        lowConfidence = (line.text.confidence ?? 0) < minConfidence
    }
}

extension PageResult.TextLine {
    /// The `kind` of a page number (ノンブル) line (`PageNumbers`): listed after the body's lines, in every format.
    static let pageNumberKind = "pageNumber"

    /// A line of a `ppocr` page: box and outline from its upright quad, text and probabilities from the reading,
    /// orientation from the upright outline's geometry (`LineOrientation`); `annotates` for a ruby line (its
    /// kind is then "ruby").
    init(_ read: PPOCRReadLine, readingOrder: Int, annotates: PageResult.RubyTarget?) {
        let b = read.line.quad.bounds, text = read.line.text
        self.init(readingOrder: readingOrder, text: text.text, confidence: text.confidence,
                  characters: text.characters, orientation: read.orientation.rawValue, detectionScore: read.score,
                  box: PageResult.Box(x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0),
                  polygon: read.line.quad.points.map { [$0.x, $0.y] }, kind: annotates == nil ? nil : "ruby",
                  annotates: annotates, lowConfidence: read.lowConfidence ? true : nil)
    }

    /// `lines` as the page's result lines in `ordering`'s order, `readingOrder` set from `first` on, ruby pointing
    /// at the reading order of the line it annotates (none with `ruby` false). Lines the ordering leaves out are
    /// dropped.
    static func ordered(_ lines: [PPOCRReadLine], _ ordering: PageOrder.Ordering, first: Int = 0, ruby: Bool = true)
        -> [PageResult.TextLine] {
        let order = ordering.order.filter { lines.indices.contains($0) }
        var position = [Int: Int]()
        for (p, i) in order.enumerated() where position[i] == nil { position[i] = first + p }
        return order.enumerated().map { p, i in
            let target = ruby ? ordering.ruby[i].flatMap { t in position[t.line].map { PageResult.RubyTarget(line: $0, start: t.start, end: t.end) } } : nil
            return PageResult.TextLine(lines[i], readingOrder: first + p, annotates: target)
        }
    }
}
