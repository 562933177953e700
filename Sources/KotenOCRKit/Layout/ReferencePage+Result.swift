extension ReferencePage {
    /// The LINE strings in document order.
    public var strings: [String] { page.lines.map { $0[attribute: "STRING"] ?? "" } }
}

extension PageResult {
    /// A page of the `ndl` or `koten` mode: one line per LINE of the ordered tree, in its document order
    /// (the reading order `style`), with the recogniser's per-character probabilities. `source` is the page as
    /// given, `rotation` how it was turned back before it was read.
    init(source: ImageSource, models: [ModelInfo], reference: ReferencePage, readings: [RecognisedText],
         rotation: PageRotation, style: OCRConfiguration.ReadingOrderStyle) {
        let lines = zip(reference.page.lines, readings).enumerated().map { index, pair in
            TextLine(line: pair.0, reading: pair.1, readingOrder: index, image: reference.image)
        }
        self.init(source: source, mode: reference.mode, models: [], lines: lines, rotation: rotation, style: style)
        self.models = models
        self.reference = reference
    }
}

extension PageResult.TextLine {
    /// A LINE of the reference tree: box = the region read (the LINE's X, Y, WIDTH, HEIGHT clamped to the
    /// page — koten keeps a negative Y in its XML); orientation vertical when that region is taller than
    /// wide (the recognisers turn such crops); detection score = CONF (0 for a LINE without one: a text
    /// block with no detected line); kind = TYPE.
    init(line: PageNode, reading: RecognisedText, readingOrder: Int, image: ImageInfo) {
        let b = LineCrop.clamped(line.lineBox, imageWidth: image.width, imageHeight: image.height)
        self.init(readingOrder: readingOrder, text: reading.text, confidence: reading.confidence,
                  characters: reading.characters,
                  orientation: (b.height > b.width ? LineOrientation.vertical : .horizontal).rawValue,
                  detectionScore: Float(line.double("CONF") ?? 0),
                  box: PageResult.Box(x: b.x1, y: b.y1, width: b.width, height: b.height),
                  polygon: [[b.x1, b.y1], [b.x2, b.y1], [b.x2, b.y2], [b.x1, b.y2]].map { $0.map(Double.init) },
                  kind: line[attribute: "TYPE"])
    }
}
