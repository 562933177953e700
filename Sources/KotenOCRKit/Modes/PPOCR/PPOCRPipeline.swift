import Foundation

/// The `ppocr` mode: PP-OCRv5 mobile (reference-pipelines.md §4).
///
/// decode (reduced, for the detector) → detect (DB) → crop (perspective, at source resolution; vertical
/// lines turned counter-clockwise) → classify orientation (optional) → recognise (CTC) → reading order
/// (XY-cut). The detector's input and activations are gone before the full-resolution page is decoded for
/// crops; crops are made one bounded batch at a time and the page is released before recognition ends.
public struct PPOCRPipeline: ModePipeline {
    public let mode = OCRMode.ppocr
    public let files: PPOCRModelFiles
    public let detector: DBDetector
    public let classifier: OrientationClassifier?
    public let recogniser: PPOCRRecogniser

    public init(files: PPOCRModelFiles, detectorMaxSide: Int = 960, useOrientationClassifier: Bool = true) throws {
        self.files = files
        detector = DBDetector(model: files.detector, maxSide: detectorMaxSide)
        classifier = useOrientationClassifier ? OrientationClassifier(model: files.classifier) : nil
        recogniser = try PPOCRRecogniser(model: files.recogniser, keysFile: files.keys)
    }

    public var models: [ModelDescriptor] {
        [files.detector, files.recogniser] + (classifier.map { [$0.model] } ?? [])
    }

    public func read(_ page: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult {
        let detector = self.detector
        let detections = try await PipelineStage.detect.measure { try await detector.detect(page, store: store) }
        AllocatorPolicy.trim()  // the detector's activations go back to the system before the page is decoded
        // Crops at source resolution; the full page exists only while they are cut.
        let crops: [(crop: RGBImage, orientation: LineOrientation)]
        if detections.isEmpty {
            crops = []
        } else {
            crops = try PipelineStage.decode.measure {
                let image = try page.decode()
                return detections.map { d in
                    let crop = perspectiveCrop(image, quad: d.quad)
                    let orientation = LineOrientation(width: Double(crop.width), height: Double(crop.height))
                    return (orientation == .vertical ? crop.rotatedCounterClockwise() : crop, orientation)
                }
            }
        }
        AllocatorPolicy.trim()  // the full-resolution page is gone; only the line crops remain
        let classifier = self.classifier, recogniser = self.recogniser
        let texts = try await PipelineStage.recognise.measure {
            try await boundedMap(crops.map(\.crop), limit: limit) { line -> RecognisedText in
                var line = line
                if let classifier, try await classifier.isUpsideDown(line, store: store) { line = line.rotated180() }
                return try await recogniser.recognise(line, store: store)
            }
        }
        let lines = zip(detections, zip(texts, crops)).map { d, tc in
            PageResult.TextLine(detection: d, text: tc.0, orientation: tc.1.orientation)
        }
        let ordered = PipelineStage.order.measure { PageReadingOrder.ordered(lines) }
        return PageResult(source: page, mode: mode, models: models, lines: ordered)
    }
}
