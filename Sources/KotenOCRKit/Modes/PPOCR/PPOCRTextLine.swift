extension PageResult.TextLine {
    /// A line of a `ppocr` page: box and outline from its upright quad, text and probabilities from the reading,
    /// orientation from the upright outline's geometry (`LineOrientation`); `annotates` for a ruby line (its
    /// kind is then "ruby").
    init(_ line: PPOCRReadLine, readingOrder: Int, annotates: PageResult.RubyTarget?) {
        let b = line.quad.bounds
        self.init(readingOrder: readingOrder, text: line.text.text, confidence: line.text.confidence,
                  characters: line.text.characters, orientation: line.orientation.rawValue, detectionScore: line.score,
                  box: PageResult.Box(x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0),
                  polygon: line.quad.points.map { [$0.x, $0.y] }, kind: annotates == nil ? nil : "ruby",
                  annotates: annotates)
    }
}
