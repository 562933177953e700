import Foundation

/// The `koten` mode: NDL Koten OCR-Lite (reference-pipelines.md §2).
///
/// decode → RTMDet line detection → every line under the page, reading order (`KotenPage.orderedPage`) →
/// one PARSeq 32×384 read per line (`KotenRecognition.read`) → `PageResult` and the ordered tree
/// (`PageResult.reference`) for the reference's XML / TXT / JSON and the run's TEI. A page with no lines
/// gives an empty result (the reference divides by zero there).
public struct KotenPipeline: ModePipeline {
    public let mode = OCRMode.koten
    public let files: KotenModelFiles
    public let detector: RTMDetDetector
    public let recogniser: PARSeqRecogniser
    private let ready = Once<Bool>()

    /// Reads and checks the charset; models load on first use. Throws `ModelError.invalidFile`.
    public init(files: KotenModelFiles) throws {
        self.files = files
        detector = RTMDetDetector(model: files.detector)
        recogniser = PARSeqRecogniser(model: files.recogniser, charset: try PARSeqCharset(contentsOf: files.charset),
                                      preprocessing: .koten)
    }

    public var models: [ModelDescriptor] { [files.detector, files.recogniser] }

    public func prepare(store: ModelStore) async throws {
        let detector = self.detector, recogniser = self.recogniser
        _ = try await ready.value {
            _ = try await ModelSignature.loading(recogniser.model) { try await recogniser.signature(store: store) }
            _ = try await ModelSignature.loading(detector.model) { try await detector.inputSide(store: store) }
            return true
        }
    }

    public func read(_ source: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult {
        let recogniser = self.recogniser
        let (detections, page, image) = try await ReferencePage.detect(source) { try await detector.detectWithPage(source, store: store) }
        try await prepare(store: store)  // after detection: a lazy first page loads the recogniser only now
        var tree = try PipelineStage.order.measure {
            try KotenPage.orderedPage(detections: detections, imageWidth: page.width, imageHeight: page.height,
                                      imageName: image.name)
        }
        let readings = try await PipelineStage.recognise.measure {
            try await KotenRecognition.read(lines: KotenPage.recognitionLines(in: tree), imageWidth: page.width,
                                            imageHeight: page.height,
                                            recogniser: KotenLineRecogniser(page: page, recogniser: recogniser, store: store),
                                            maxConcurrentReads: limit)
        }
        tree.setLineStrings(readings.map(\.text))
        let info = [PageResult.ModelInfo(model: files.detector, role: "detector"),
                    PageResult.ModelInfo(model: files.recogniser, role: "recogniser")]
        return PageResult(source: source, models: info, reference: ReferencePage(mode: .koten, page: tree, image: image),
                          readings: readings)
    }
}
