import Foundation

/// The `koten` mode: NDL Koten OCR-Lite (docs/reference-pipelines.md §2).
///
/// decode → RTMDet line detection → every line under the page, reading order (`KotenPage.orderedPage`) →
/// one PARSeq 32×384 read per line (`KotenRecognition.read`) → `PageResult` and the ordered tree
/// (`PageResult.reference`) for the reference's XML / TXT / JSON and the run's TEI. A page with no lines
/// gives an empty result (the reference divides by zero there).
package struct KotenPipeline: ModePipeline {
    public let mode = OCRMode.koten
    public let files: KotenModelFiles
    /// Finds the lines (RTMDet, `RTMDetDetector.detector(model:)`, unless the configuration supplies another).
    public let detector: any PageDetector<KotenDetection>
    /// Reads each line (the koten PARSeq recogniser unless the configuration supplies another).
    public let reader: any LineReader<RecognisedText>
    /// Reading order style (`page` by default; `ndl` is the reference's exactly).
    public let readingOrder: OCRConfiguration.ReadingOrderStyle
    /// The rotation every page is turned back from before it is read; nil reads pages as given (RTMDet gives no
    /// sign of a turned page).
    public let pageRotation: PageRotation?
    private let ready = Once<Bool>()

    /// Reads and checks the charset (unless `stages` supplies the reader); models load on first use.
    /// Throws `ModelError.invalidFile`, `StageError.mismatch` for a supplied detector that does not find
    /// `KotenDetection`s.
    public init(files: KotenModelFiles, readingOrder: OCRConfiguration.ReadingOrderStyle = .page, pageRotation: PageRotation? = nil,
                stages: StageOverrides = StageOverrides()) throws {
        self.files = files
        self.readingOrder = readingOrder
        self.pageRotation = pageRotation
        detector = try stages.detector(finding: KotenDetection.self, mode: .koten) ?? RTMDetDetector.detector(model: files.detector)
        reader = try stages.reader ?? PARSeqRecogniser(model: files.recogniser, charset: PARSeqCharset(contentsOf: files.charset),
                                                       preprocessing: .koten)
    }

    public var models: [ModelDescriptor] { detector.models + reader.models }

    public func prepare(store: ModelStore) async throws {
        let detector = self.detector, reader = self.reader
        _ = try await ready.value {
            try await reader.prepare(store: store)
            try await detector.prepare(store: store)
            return true
        }
    }

    public func read(_ given: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult {
        let source = pageRotation.map { given.turnedUpright(from: $0) } ?? given
        let (detections, image) = try await ReferencePage.detect(source, with: detector, store: store)
        try await prepare(store: store)  // after detection: a lazy first page loads the recogniser only now
        var tree = try PipelineStage.order.measure {
            try KotenPage.orderedPage(detections: detections, imageWidth: image.width, imageHeight: image.height,
                                      imageName: image.name, style: readingOrder)
        }
        let lines = KotenPage.recognitionLines(in: tree)
        LineProgress.found(lines.count)
        let crops = try ReferencePage.lineImages(source, lines: lines, image: image)
        let reader = self.reader
        let readings = try await PipelineStage.recognise.measure {
            try await KotenRecognition.read(lines: lines, imageWidth: image.width, imageHeight: image.height) { boxes in
                try await reader.read(boxes.map { crops.region($0) }, store: store, limit: limit)
            }
        }
        tree.setLineStrings(readings.map(\.text))
        let info = models.map { PageResult.ModelInfo(model: $0, role: $0.role) }
        let reference = ReferencePage(mode: .koten, page: tree, image: image, jsonStyle: KotenPage.jsonStyle)
        return PageResult(source: given, models: info, reference: reference, readings: readings,
                          rotation: pageRotation ?? .upright, style: readingOrder)
    }
}
