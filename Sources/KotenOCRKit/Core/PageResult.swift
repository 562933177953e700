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
    public var lines: [TextLine]
    /// For the `ndl` and `koten` modes, what the reference-format writers need (the ordered page tree
    /// with its strings, the image facts): NDL XML, the reference's TXT and JSON, koten TEI. Not part of
    /// the JSON (nil after decoding); nil for `ppocr`.
    public var reference: ReferencePage? = nil

    enum CodingKeys: String, CodingKey {
        case schemaVersion, source, mode, models, orientation, lines
    }

    /// The page's text: lines in reading order, one per line.
    public var text: String { lines.map(\.text).joined(separator: "\n") }

    public struct SourceInfo: Sendable, Codable, Equatable {
        /// The input file's absolute path (`ImageSource.url.path`; docs/json-schema.md `source.path`).
        public var path: String
        /// 1-based page within the file.
        public var page: Int
        public var pageCount: Int
        /// Upright size in pixels (EXIF orientation applied).
        public var width: Int
        public var height: Int
        /// The file's EXIF orientation tag (1 = none); coordinates are in the upright page.
        public var exifOrientation: Int
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
        /// Layout class (e.g. "本文", "line_main") where the mode has classes.
        public var kind: String?
    }

    public struct Box: Sendable, Codable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
    }
}

extension PageResult {
    /// A page of `lines` (in reading order) read from `page` by `models` (listed by their roles); the page's
    /// orientation is that of most lines ("none" without lines).
    init(source page: ImageSource, mode: OCRMode, models: [ModelDescriptor], lines: [TextLine]) {
        let vertical = lines.filter { $0.orientation == LineOrientation.vertical.rawValue }.count
        self.init(source: SourceInfo(path: page.name, page: page.page + 1, pageCount: page.pageCount,
                                     width: page.width, height: page.height, exifOrientation: page.orientation),
                  mode: mode,
                  models: models.map { ModelInfo(role: $0.role, file: $0.url.lastPathComponent, bytes: $0.fileBytes) },
                  orientation: lines.isEmpty ? "none" : (2 * vertical > lines.count ? "vertical" : "horizontal"),
                  lines: lines)
    }
}

extension PageResult.ModelInfo {
    /// `model` listed in a result under `role`.
    init(model: ModelDescriptor, role: String) {
        self.init(role: role, file: model.url.lastPathComponent, bytes: model.fileBytes)
    }
}
