extension PageResult.TextLine {
    /// A line of a `ppocr` page, or nil when its text is empty (or only white space): a box the recogniser
    /// finds nothing in is no line. Flagged `lowConfidence` when its confidence is under `minConfidence`.
    init?(detection d: Detection, text: RecognisedText, orientation: LineOrientation, minConfidence: Float) {
        guard !text.text.allSatisfy(\.isWhitespace) else { return nil }
        self.init(detection: d, text: text, orientation: orientation)
        if (text.confidence ?? 0) < minConfidence { lowConfidence = true }
    }

    /// A line of a `ppocr` page: box and outline from the detection's quad, text and probabilities from the
    /// reading, orientation from the crop's geometry (`LineOrientation`); reading order is set later.
    init(detection d: Detection, text: RecognisedText, orientation: LineOrientation, kind: String? = nil) {
        let b = d.quad.bounds
        self.init(readingOrder: 0, text: text.text, confidence: text.confidence, characters: text.characters,
                  orientation: orientation.rawValue, detectionScore: d.score,
                  box: PageResult.Box(x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0),
                  polygon: d.quad.points.map { [$0.x, $0.y] }, kind: kind)
    }
}
