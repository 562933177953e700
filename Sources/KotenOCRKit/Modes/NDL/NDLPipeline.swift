import Foundation

/// The `ndl` mode: NDLOCR-Lite (reference-pipelines.md §1).
///
/// decode (full resolution; reduced for detection only on huge pages) → DEIM layout detection → layout
/// tree and reading order (`NDLPage.orderedPage`) → the three-recogniser PARSeq cascade
/// (`NDLCascade.read`) on crops of the page → `PageResult` with per-character probabilities, and the
/// ordered tree (`PageResult.reference`) for NDL XML / TXT / JSON byte for byte as NDL writes them.
/// The detector's input tensor is gone before recognition; the decoded page stays until the last line is
/// read (the cascade may crop a line several times); lines are read at most `limit` at a time, every run
/// through the store's inference limiter.
public struct NDLPipeline: ModePipeline {
    public let mode = OCRMode.ndl
    public let files: NDLModelFiles
    public let detector: DEIMDetector
    public let charset: PARSeqCharset
    private let ready = Once<Ready>()

    /// The checked models: the recogniser each cascade model is, and the models as a result lists them.
    struct Ready: Sendable {
        let recognisers: [CascadeModel: PARSeqRecogniser]
        let modelInfo: [PageResult.ModelInfo]
    }

    /// Reads and checks the configuration files (classes and charset); models load on first use.
    /// Throws `ModelError.invalidFile` naming the file and what is wrong.
    public init(files: NDLModelFiles) throws {
        self.files = files
        try NDLClass.validateClassesFile(files.classes)
        charset = try PARSeqCharset(contentsOf: files.charset)
        detector = DEIMDetector(model: files.detector)
    }

    public var models: [ModelDescriptor] { [files.detector] + files.recognisers }

    public func prepare(store: ModelStore) async throws {
        _ = try await prepared(store)
    }

    /// Which file reads for which cascade model, from the sessions' shapes: the recogniser with the
    /// narrowest input is the 30-character model, the widest the 100-character one (NDL's: W 256, 384,
    /// 768; output T 31, 51, 101), whatever the files are called. Loads and checks every model.
    /// Throws `ModelError.invalidFile` naming the file and what is wrong.
    public func routing(store: ModelStore) async throws -> [CascadeModel: ModelDescriptor] {
        try await prepared(store).recognisers.mapValues(\.model)
    }

    private func prepared(_ store: ModelStore) async throws -> Ready {
        let files = self.files, detector = self.detector, charset = self.charset
        return try await ready.value {
            var signatures: [(ModelDescriptor, PARSeqRecogniser.Signature)] = []
            for model in files.recognisers {
                let r = PARSeqRecogniser(model: model, charset: charset, preprocessing: .ndl)
                signatures.append((model, try await ModelSignature.loading(model) { try await r.signature(store: store) }))
            }
            _ = try await ModelSignature.loading(detector.model) { try await detector.signature(store: store) }
            let routed = try Self.route(signatures)
            let recognisers = routed.mapValues { PARSeqRecogniser(model: $0, charset: charset, preprocessing: .ndl) }
            let info = [PageResult.ModelInfo(model: files.detector, role: "detector")]
                + CascadeModel.allCases.compactMap { m in
                    routed[m].map { PageResult.ModelInfo(model: $0, role: "recogniser\(m.rawValue.dropFirst(3))") }
                }
            return Ready(recognisers: recognisers, modelInfo: info)
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

    public func read(_ source: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult {
        // Detection first: on a lazy first page the recognisers load (and are routed) only after the detector's
        // activations are gone.
        let (detections, page, image) = try await ReferencePage.detect(source) { try await detector.detectWithPage(source, store: store) }
        let ready = try await prepared(store)
        var tree = try PipelineStage.order.measure {
            try NDLPage.orderedPage(detections: detections, imageWidth: page.width, imageHeight: page.height,
                                    imageName: image.name)
        }
        let lines = NDLPage.recognitionLines(in: &tree, detections: detections)
        let readings = try await PipelineStage.recognise.measure {
            try await NDLCascade.read(lines: lines, imageWidth: page.width, imageHeight: page.height,
                                      recogniser: NDLLineRecogniser(page: page, recognisers: ready.recognisers, store: store),
                                      maxConcurrentReads: limit)
        }
        tree.setLineStrings(readings.map(\.text))
        return PageResult(source: source, models: ready.modelInfo, reference: ReferencePage(mode: .ndl, page: tree, image: image),
                          readings: readings)
    }
}
