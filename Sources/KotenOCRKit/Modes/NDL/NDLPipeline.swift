import Foundation

/// The `ndl` mode: NDLOCR-Lite (docs/reference-pipelines.md §1).
///
/// decode (full resolution; reduced for detection only on huge pages) → DEIM layout detection → layout
/// tree and reading order (`NDLPage.orderedPage`) → the three-recogniser PARSeq cascade
/// (`NDLCascade.read`) on crops of the page → `PageResult` with per-character probabilities, and the
/// ordered tree (`PageResult.reference`) for NDL XML / TXT / JSON byte for byte as NDL writes them.
/// The decoded page is gone before the detector runs; after detection the lines are cut from the file in one pass
/// (`LineImages`: the page never whole), and read in batches (`LineReader.read(_:store:limit:)`), at most `limit`
/// runs in flight, every run through the store's inference limiter.
package struct NDLPipeline: ModePipeline {
    public let mode = OCRMode.ndl
    public let files: NDLModelFiles
    /// Finds the layout (DEIM, `DEIMDetector.detector(model:)`, unless the configuration supplies another).
    public let detector: any PageDetector<NDLDetection>
    public let charset: PARSeqCharset
    /// The reader the configuration supplies for every cascade model, in place of the routed recognisers.
    public let suppliedReader: (any LineReader<RecognisedText>)?
    /// Reading order style (`page` by default; `ndl` is the reference's exactly).
    public let readingOrder: OCRConfiguration.ReadingOrderStyle
    /// The rotation every page is turned back from before it is read; nil reads pages as given (DEIM gives no
    /// sign of a turned page).
    public let pageRotation: PageRotation?
    private let ready = Once<Ready>()

    /// The checked models: the reader of each cascade model, the file each routed recogniser is (none for a
    /// supplied reader), and the models as a result lists them.
    struct Ready: Sendable {
        let readers: [CascadeModel: any LineReader<RecognisedText>]
        let routing: [CascadeModel: ModelDescriptor]
        let modelInfo: [PageResult.ModelInfo]
    }

    /// Reads and checks the configuration files (classes and charset); models load on first use.
    /// Throws `ModelError.invalidFile` naming the file and what is wrong, `StageError.mismatch` for a
    /// supplied detector that does not find `NDLDetection`s.
    public init(files: NDLModelFiles, readingOrder: OCRConfiguration.ReadingOrderStyle = .page, pageRotation: PageRotation? = nil,
                stages: StageOverrides = StageOverrides()) throws {
        self.files = files
        self.readingOrder = readingOrder
        self.pageRotation = pageRotation
        try NDLClass.validateClassesFile(files.classes)
        charset = try PARSeqCharset(contentsOf: files.charset)
        detector = try stages.detector(finding: NDLDetection.self, mode: .ndl) ?? DEIMDetector.detector(model: files.detector)
        suppliedReader = stages.reader
    }

    public var models: [ModelDescriptor] { detector.models + (suppliedReader?.models ?? files.recognisers) }

    public func prepare(store: ModelStore) async throws {
        _ = try await prepared(store)
    }

    /// Which file reads for which cascade model, from the sessions' shapes: the recogniser with the
    /// narrowest input is the 30-character model, the widest the 100-character one (NDL's: W 256, 384,
    /// 768; output T 31, 51, 101), whatever the files are called. Loads and checks every model (empty
    /// when the configuration supplies the reader). Throws `ModelError.invalidFile` naming the file and
    /// what is wrong.
    public func routing(store: ModelStore) async throws -> [CascadeModel: ModelDescriptor] {
        try await prepared(store).routing
    }

    private func prepared(_ store: ModelStore) async throws -> Ready {
        let files = self.files, detector = self.detector, charset = self.charset, supplied = suppliedReader
        return try await ready.value {
            if let supplied {
                try await supplied.prepare(store: store)
                try await detector.prepare(store: store)
                return Ready(readers: Dictionary(uniqueKeysWithValues: CascadeModel.allCases.map { ($0, supplied) }), routing: [:],
                             modelInfo: (detector.models + supplied.models).map { PageResult.ModelInfo(model: $0, role: $0.role) })
            }
            var signatures: [(ModelDescriptor, PARSeqRecogniser.Signature)] = []
            for model in files.recognisers {
                let r = PARSeqRecogniser(model: model, charset: charset, preprocessing: .ndl)
                signatures.append((model, try await ModelSignature.loading(model) { try await r.signature(store: store) }))
            }
            try await detector.prepare(store: store)
            let routed = try Self.route(signatures)
            let readers = routed.mapValues { model -> any LineReader<RecognisedText> in
                PARSeqRecogniser(model: model, charset: charset, preprocessing: .ndl)
            }
            let info = detector.models.map { PageResult.ModelInfo(model: $0, role: $0.role) }
                + CascadeModel.allCases.compactMap { m in
                    routed[m].map { PageResult.ModelInfo(model: $0, role: "recogniser\(m.rawValue.dropFirst(3))") }
                }
            return Ready(readers: readers, routing: routed, modelInfo: info)
        }
    }

    /// The cascade models by input width (then output length): three recognisers of different widths,
    /// whose output lengths (where fixed) grow with the width. Throws `ModelError.invalidFile`.
    static func route(_ models: [(ModelDescriptor, PARSeqRecogniser.Signature)]) throws -> [CascadeModel: ModelDescriptor] {
        let sorted = models.sorted { ($0.1.inputWidth, $0.1.steps ?? 0) < ($1.1.inputWidth, $1.1.steps ?? 0) }
        guard sorted.count == CascadeModel.allCases.count else {
            throw ModelError.missingFiles(mode: .ndl, directory: sorted.first?.0.url.deletingLastPathComponent().path ?? "",
                                          files: ["three PARSeq recognisers"])
        }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            guard a.1.inputWidth < b.1.inputWidth else {
                throw ModelError.invalidFile(path: b.0.url.path, reason: "takes the same input width (\(b.1.inputWidth)) as "
                    + "\(a.0.url.lastPathComponent); the cascade needs three recognisers of different widths (NDL's: 256, 384, 768)")
            }
            if let ta = a.1.steps, let tb = b.1.steps, ta >= tb {
                throw ModelError.invalidFile(path: b.0.url.path, reason: "input width \(b.1.inputWidth) but output length \(tb), "
                    + "not longer than \(a.0.url.lastPathComponent)'s \(ta) at width \(a.1.inputWidth)")
            }
        }
        return Dictionary(uniqueKeysWithValues: zip(CascadeModel.allCases, sorted.map(\.0)))
    }

    public func read(_ given: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult {
        let source = pageRotation.map { given.turnedUpright(from: $0) } ?? given
        // Detection first: on a lazy first page the recognisers load (and are routed) only after the detector's
        // activations are gone.
        let (detections, image) = try await ReferencePage.detect(source, with: detector, store: store)
        let ready = try await prepared(store)
        var tree = try PipelineStage.order.measure {
            try NDLPage.orderedPage(detections: detections, imageWidth: image.width, imageHeight: image.height,
                                    imageName: image.name, style: readingOrder)
        }
        let lines = NDLPage.recognitionLines(in: &tree, detections: detections)
        LineProgress.found(lines.count)
        let crops = try ReferencePage.lineImages(source, lines: lines, image: image)
        let readers = ready.readers
        let readings = try await PipelineStage.recognise.measure {
            try await NDLCascade.read(lines: lines, imageWidth: image.width, imageHeight: image.height) { model, boxes in
                guard let reader = readers[model] else { return boxes.map { _ in RecognisedText.empty } }
                return try await reader.read(boxes.map { crops.region($0) }, store: store, limit: limit)
            }
        }
        tree.setLineStrings(readings.map(\.text))
        let reference = ReferencePage(mode: .ndl, page: tree, image: image, jsonStyle: NDLPage.jsonStyle)
        return PageResult(source: given, models: ready.modelInfo, reference: reference, readings: readings,
                          rotation: pageRotation ?? .upright, style: readingOrder)
    }
}
