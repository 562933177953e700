/// What the reference-format writers need of a page read in the `ndl` or `koten` mode: the page tree in
/// the reference's document order (ORDER set, LINEs sorted and de-duplicated, STRING on every LINE) and
/// the image facts. Carried on `PageResult.reference` (not part of the engine's JSON), so `<stem>.xml`,
/// `<stem>.txt`, the reference's `<stem>.json` and the koten TEI can be written byte for byte as NDL's
/// code writes them (parity README O1–O4).
public struct ReferencePage: Sendable, Hashable {
    /// The mode that read the page (`ndl` or `koten`).
    public var mode: OCRMode
    /// The ordered PAGE element with STRING on every LINE.
    public var page: PageNode
    /// Size of the page as read (upright), the path as given and the file name.
    public var image: ImageInfo

    public init(mode: OCRMode, page: PageNode, image: ImageInfo) {
        self.mode = mode
        self.page = page
        self.image = image
    }

    /// The LINE strings in document order.
    public var strings: [String] { page.lines.map { $0[attribute: "STRING"] ?? "" } }
    /// The reference's `<stem>.xml` (NDL XML: `<OCRDATASET>` around the PAGE, no declaration).
    public var xml: String { PageOutput.xml(page: page) }
    /// The reference's `<stem>.txt`: the strings joined with "\n", no final newline.
    public var text: String { PageOutput.text(strings: strings) }
    /// The reference's `<stem>.json` (`contents`/`imginfo`, `json.dumps(ensure_ascii=False, indent=2)`).
    public var json: String { PageOutput.json(page: page, image: image, mode: mode) }
    /// The page as one `surface` of a koten TEI document.
    public var teiPage: TEIPage { TEIPage(page: page, image: image) }
}

extension PageResult.ModelInfo {
    init(model: ModelDescriptor, role: String) {
        self.init(role: role, file: model.url.lastPathComponent, bytes: model.fileBytes)
    }
}

extension PageResult {
    /// A page of the `ndl` or `koten` mode: one line per LINE of the ordered tree, in its document order
    /// (the reference's reading order), with the recogniser's per-character probabilities.
    init(source: ImageSource, models: [ModelInfo], reference: ReferencePage, readings: [RecognisedText]) {
        let lines = zip(reference.page.lines, readings).enumerated().map { index, pair in
            TextLine(line: pair.0, reading: pair.1, readingOrder: index, image: reference.image)
        }
        self.init(source: source, mode: reference.mode, models: [], lines: lines)
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

extension ReferencePage {
    /// The first step of both NDL modes: `detector` on `source` (timed as the detect stage; its activations go back
    /// when it ends), and the image facts the reference writes (upright size, the path as given, the file name).
    /// No page is kept: the lines are cut from the file afterwards (`lineImages`).
    static func detect<Region: Sendable>(_ source: ImageSource, with detector: any PageDetector<Region>, store: ModelStore)
        async throws -> (detections: [Region], image: ImageInfo) {
        let detected = try await PipelineStage.detect.measure { try await detector.detect(source, store: store) }
        let image = ImageInfo(width: source.width, height: source.height, path: source.url.relativePath,
                              name: source.url.lastPathComponent)
        return (detected.detections, image)
    }

    /// The crops of `lines` (their boxes clamped to the page, as the recognisers read them), cut from `source` in one
    /// pass (timed as a decode stage). Throws `ImageError`.
    static func lineImages(_ source: ImageSource, lines: [RecognitionLine], image: ImageInfo) throws -> LineImages {
        try PipelineStage.decode.measure {
            try LineImages(source, boxes: lines.map { LineCrop.clamped($0.box, imageWidth: image.width, imageHeight: image.height) })
        }
    }
}
