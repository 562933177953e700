import Foundation

/// The text of one page and where it came from: the engine's own result, written as `<stem>.json`
/// (schema: docs/json-schema.md, `schemaVersion` 1). Lines are in reading order.
public struct PageResult: Sendable, Codable, Equatable {
    public static let schemaVersion = 1

    public var schemaVersion = PageResult.schemaVersion
    public var source: SourceInfo
    public var mode: OCRMode
    /// The models that read this page.
    public var models: [ModelInfo]
    /// Orientation of most lines ("vertical" or "horizontal"; "none" for a page with no lines).
    public var orientation: String
    /// How the page as given (EXIF orientation applied) was turned from upright; the engine read it turned back
    /// and every coordinate here is in the upright page (`source.width` × `source.height`). Nil only in results
    /// decoded from JSON written before the field existed.
    public var rotation: PageRotation?
    /// The skew the reading order undid, degrees counter-clockwise (a page turned counter-clockwise on the scanner
    /// has a positive skew); 0 when none was estimated (the `ndl` order, NDL's axis-aligned boxes).
    public var skew: Double?
    /// The reading order the lines are in (`OCRConfiguration.ReadingOrderStyle`); nil when a supplied order stage put them in order
    /// (`StageOverrides.orderer`).
    public var readingOrderStyle: OCRConfiguration.ReadingOrderStyle?
    public var lines: [TextLine]
    /// ppocr: the detector's passes over the page (scale, map size, tiles: `tiled` says whether the page was
    /// read in tiles); nil for the other modes, whose detectors take one fixed input size.
    public var detector: DetectorSummary? = nil
    /// ppocr, a rotation found from the page: the evidence it was taken on (`RotationEvidence`); nil when the
    /// rotation was given and in the other modes.
    package var rotationEvidence: RotationEvidence? = nil
    /// For the `ndl` and `koten` modes, what the reference-format writers need (the ordered page tree
    /// with its strings, the image facts): NDL XML, the reference's TXT and JSON, koten TEI. Not part of
    /// the JSON (nil after decoding); nil for `ppocr`.
    package var reference: ReferencePage? = nil

    enum CodingKeys: String, CodingKey {
        case schemaVersion, source, mode, models, orientation, rotation, skew, readingOrderStyle, lines, detector, rotationEvidence
    }

    /// The page's body text: its `textLines` in reading order, one per line, ruby left out (`text(ruby:)`).
    public var text: String { text(ruby: .drop) }

    /// The lines the text outputs hold: every line but those flagged `lowConfidence` (which the JSON keeps).
    public var textLines: [TextLine] { lines.filter { $0.lowConfidence != true } }

    public struct SourceInfo: Sendable, Codable, Equatable {
        /// The input file's absolute path (`ImageSource.url.path`; docs/json-schema.md `source.path`).
        public var path: String
        /// 1-based page within the file.
        public var page: Int
        public var pageCount: Int
        /// Upright size in pixels (EXIF orientation applied, then the page's `rotation` undone).
        public var width: Int
        public var height: Int
        /// The file's EXIF orientation tag (1 = none); coordinates are in the upright page.
        public var exifOrientation: Int
        /// The IIIF canvas the page is (its manifest's label, attribution, rights and the canvas id: docs/iiif.md);
        /// absent for a file read without `--format iiif`.
        package var iiif: IIIFCanvasSource? = nil
    }

    public struct ModelInfo: Sendable, Codable, Equatable {
        /// Role in the pipeline: "detector", "classifier", "recogniser", "recogniser30", ...
        public var role: String
        /// File name in the model directory.
        public var file: String
        public var bytes: Int
    }

    public struct TextLine: Sendable, Codable, Equatable {
        /// Position in reading order (0-based).
        public var readingOrder: Int
        public var text: String
        /// Mean of the characters' probabilities; nil when the recogniser gives none or the line is empty.
        public var confidence: Float?
        /// Per-character text and probability.
        public var characters: [RecognisedText.Character]
        /// "vertical" or "horizontal", from the line's geometry (height ≥ 1.5 × width is vertical).
        public var orientation: String
        /// The detector's score for this line.
        public var detectionScore: Float
        /// Axis-aligned box in page pixels.
        public var box: Box
        /// Outline in page pixels, corners clockwise from the top-left.
        public var polygon: [[Double]]
        /// Layout class (e.g. "本文", "line_main") where the mode has classes; "ruby" for a line of ruby
        /// (furigana) beside a body line (`annotates`).
        public var kind: String?
        /// For a ruby line: the body line it annotates (`line` is that line's `readingOrder`) and which of its
        /// characters.
        public var annotates: RubyTarget?
        /// True when the line's recognition confidence is under the minimum (ppocr: `--min-line-confidence`,
        /// default 0.5, as RapidOCR's `text_score`): listed in the JSON after the page's other lines, left out
        /// of every other format. Absent (nil) for every other line.
        public var lowConfidence: Bool? = nil
        /// The engine's text when `text` is a proofreader's correction (`PageResult.applying`); absent (nil) on a
        /// line as read.
        public var modelText: String? = nil
        /// True on a line a proofreader added (a region drawn, `PageCorrections.AddedLine`); absent otherwise.
        public var added: Bool? = nil
    }

    public struct Box: Sendable, Codable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }
}

extension PageResult {
    /// A page of `lines` (in reading order) read from `page` by `models` (listed by their roles); the page's
    /// orientation is that of most of its text lines (those not flagged `lowConfidence`; "none" without any).
    /// `rotation`: how `page` as given is turned from upright (its size is reported upright); `skew` in radians
    /// (`SkewEstimate`); `style` the order the lines are in.
    init(source page: ImageSource, mode: OCRMode, models: [ModelDescriptor], lines all: [TextLine],
         rotation: PageRotation = .upright, skew: Double = 0, style: OCRConfiguration.ReadingOrderStyle?) {
        let lines = all.filter { $0.lowConfidence != true }
        let vertical = lines.filter { $0.orientation == LineOrientation.vertical.rawValue }.count
        let size = rotation.uprightSize(width: page.width, height: page.height)
        self.init(source: SourceInfo(path: page.name, page: page.page + 1, pageCount: page.pageCount,
                                     width: size.width, height: size.height, exifOrientation: page.orientation),
                  mode: mode,
                  models: models.map { ModelInfo(role: $0.role, file: $0.url.lastPathComponent, bytes: $0.fileBytes) },
                  orientation: lines.isEmpty ? "none" : (2 * vertical > lines.count ? "vertical" : "horizontal"),
                  rotation: rotation, skew: Self.degrees(counterClockwise: skew), readingOrderStyle: style, lines: all)
    }

    /// A skew in radians of image coordinates (`SkewEstimate`) as degrees counter-clockwise, to 0.01°.
    static func degrees(counterClockwise radians: Double) -> Double {
        let d = (-radians * 180 / Double.pi * 100).rounded() / 100
        return d == 0 ? 0 : d
    }
}

extension PageResult.ModelInfo {
    /// `model` listed in a result under `role`.
    init(model: ModelDescriptor, role: String) {
        self.init(role: role, file: model.url.lastPathComponent, bytes: model.fileBytes)
    }
}
