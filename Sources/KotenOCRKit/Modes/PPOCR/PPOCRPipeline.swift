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

/// The PP-OCRv5 files in a model directory.
public struct PPOCRModelFiles: Sendable {
    public static let detectorFile = "ppocrv5_det.onnx"
    public static let classifierFile = "ppocrv5_cls.onnx"
    public static let recogniserFile = "ppocrv5_rec.onnx"
    public static let keysFile = "ppocr_keys_v5.txt"

    public let detector: ModelDescriptor
    public let classifier: ModelDescriptor
    public let recogniser: ModelDescriptor
    public let keys: URL

    /// The files in `directory` (used as is; `ModelDirectory` finds the directory).
    public init(directory: URL, detectorInputElements: Int = 3 * 960 * 736) {
        detector = ModelDescriptor(mode: .ppocr, role: "detector", stage: .detection, url: directory.appendingPathComponent(Self.detectorFile),
                                   // Measured: ≈ 89 MB of activations for 3×960×736 (42 B per element); 45 keeps a margin.
                                   activationBytesPerElement: 45, typicalInputElements: detectorInputElements)
        classifier = ModelDescriptor(mode: .ppocr, role: "classifier", stage: .classification, url: directory.appendingPathComponent(Self.classifierFile),
                                     activationBytesPerElement: 60, typicalInputElements: 3 * 80 * 160)
        recogniser = ModelDescriptor(mode: .ppocr, role: "recogniser", stage: .recognition, url: directory.appendingPathComponent(Self.recogniserFile),
                                     activationBytesPerElement: 60, typicalInputElements: 3 * 48 * 640)
        keys = directory.appendingPathComponent(Self.keysFile)
    }
}

extension PageResult.TextLine {
    init(detection d: Detection, text: RecognisedText, orientation: LineOrientation, kind: String? = nil) {
        let b = d.quad.bounds
        self.init(readingOrder: 0, text: text.text, confidence: text.confidence, characters: text.characters,
                  orientation: orientation.rawValue, detectionScore: d.score,
                  box: PageResult.Box(x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0),
                  polygon: d.quad.points.map { [$0.x, $0.y] }, kind: kind)
    }
}

extension PageResult {
    init(source page: ImageSource, mode: OCRMode, models: [ModelDescriptor], lines: [TextLine]) {
        let vertical = lines.filter { $0.orientation == LineOrientation.vertical.rawValue }.count
        self.init(source: SourceInfo(path: page.url.path, page: page.page + 1, pageCount: page.pageCount,
                                     width: page.width, height: page.height, exifOrientation: page.orientation),
                  mode: mode,
                  models: models.map { ModelInfo(role: $0.role, file: $0.url.lastPathComponent, bytes: $0.fileBytes) },
                  orientation: lines.isEmpty ? "none" : (2 * vertical > lines.count ? "vertical" : "horizontal"),
                  lines: lines)
    }
}
