import Foundation

/// The `ppocr` mode: PP-OCRv5 mobile (docs/reference-pipelines.md §4).
///
/// decode (reduced, for the detector) → detect (DB) → crop (perspective, at source resolution; vertical
/// lines turned counter-clockwise) → classify orientation (optional) → recognise (CTC) → reading order
/// (XY-cut). The detector's input and activations are gone before the full-resolution page is decoded for
/// crops; the page is released once the crops are cut; lines are classified and recognised in batched runs
/// (`PPOCRLineReader`), at most `limit` in flight.
public struct PPOCRPipeline: ModePipeline {
    public let mode = OCRMode.ppocr
    public let files: PPOCRModelFiles
    /// Finds the lines (`DBDetector` unless the configuration supplies another).
    public let detector: any PageDetector<Detection>
    /// Reads each line, cut and turned upright (`PPOCRLineReader`: orientation classifier and CTC recogniser,
    /// unless the configuration supplies another).
    public let reader: any LineReader<RecognisedText>

    /// Reads the keys file (unless `stages` supplies the reader). Throws if it cannot be read,
    /// `StageError.mismatch` for a supplied detector that does not find `Detection`s.
    public init(files: PPOCRModelFiles, detectorMaxSide: Int = 960, useOrientationClassifier: Bool = true,
                stages: StageOverrides = StageOverrides()) throws {
        self.files = files
        detector = try stages.detector(finding: Detection.self, mode: .ppocr) ?? DBDetector(model: files.detector, maxSide: detectorMaxSide)
        reader = try stages.reader ?? PPOCRLineReader(files: files, useOrientationClassifier: useOrientationClassifier)
    }

    public var models: [ModelDescriptor] { detector.models + reader.models }

    /// Loads the stages' models and checks them (detector, then classifier and recogniser: the shapes, and
    /// the recogniser's output classes against the keys). Throws `ModelError.invalidFile` naming the file and
    /// what is wrong.
    public func prepare(store: ModelStore) async throws {
        try await detector.prepare(store: store)
        try await reader.prepare(store: store)
    }

    public func read(_ page: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult {
        let detector = self.detector
        // The detect stage's end returns the detector's activations to the system (`StageBoundary`).
        var detected = try await PipelineStage.detect.measure { try await detector.detect(page, store: store) }
        let detections = detected.detections
        // Crops at source resolution; the full page exists only while they are cut, so the decode stage's end
        // returns it to the system before recognition and only the line crops remain.
        let crops: [(crop: RGBImage, orientation: LineOrientation)]
        if detections.isEmpty {
            crops = []
            detected.page = nil
        } else {
            try Task.checkCancellation()  // a cancelled page decodes nothing more
            crops = try PipelineStage.decode.measure {
                let image = try detected.page ?? page.decode()
                detected.page = nil
                return try detections.map { d in
                    try Task.checkCancellation()
                    let crop = perspectiveCrop(image, quad: d.quad)
                    let orientation = LineOrientation(width: Double(crop.width), height: Double(crop.height))
                    return (orientation == .vertical ? crop.rotatedCounterClockwise() : crop, orientation)
                }
            }
        }
        let reader = self.reader
        LineProgress.found(crops.count)
        let texts = try await PipelineStage.recognise.measure {
            try await reader.read(crops.map { LineRegion(wholeOf: $0.crop) }, store: store, limit: limit)
        }
        let lines = zip(detections, zip(texts, crops)).map { d, tc in
            PageResult.TextLine(detection: d, text: tc.0, orientation: tc.1.orientation)
        }
        let ordered = PipelineStage.order.measure { PageReadingOrder.ordered(lines) }
        return PageResult(source: page, mode: mode, models: models, lines: ordered)
    }
}
