/// One PARSeq line recogniser on ONNX Runtime: an NDLOCR-Lite cascade model (24×256/384/768 in v1.2,
/// 16×W in v1.0) or NDL Koten OCR-Lite's (32×384).
///
/// Input: the session's first input, float32 [1,3,H,W] (H and W read from the session): the line crop,
/// turned 90° counter-clockwise when taller than wide, resized to W×H without keeping the aspect ratio —
/// `LineInput.ndl` (cv2 bilinear; BGR, x/127.5 − 1) or `LineInput.koten` (Pillow bicubic; BGR,
/// (x/255 − 0.5)×2). Output: the session's first output, logits float32 [1,T,charset + 1], decoded by
/// `PARSeqDecoder`. Reference: docs/reference-pipelines.md §1.5, §2.2; goldens `ndl/preprocess/parseq`,
/// `koten/preprocess/parseq`. As a `LineReader` it is the `koten` mode's recognition stage and each of the
/// `ndl` mode's three cascade readers.
package struct PARSeqRecogniser: LineReader {
    /// Which reference's line input the model was trained on.
    public enum Preprocessing: Sendable { case ndl, koten }

    public let model: ModelDescriptor
    public let charset: PARSeqCharset
    public let preprocessing: Preprocessing

    public init(model: ModelDescriptor, charset: PARSeqCharset, preprocessing: Preprocessing) {
        self.model = model
        self.charset = charset
        self.preprocessing = preprocessing
    }

    /// What the session says, checked.
    public struct Signature: Sendable, Equatable {
        public var inputName: String
        public var outputName: String
        /// H and W of the [1,3,H,W] input.
        public var inputHeight: Int
        public var inputWidth: Int
        /// T of the [1,T,C] output (maximum label length + 1), nil when the model leaves it dynamic.
        public var steps: Int?
        /// Whether the input's first dimension is dynamic, so several lines can run as one batch [N,3,H,W]
        /// (NDL's exported files fix it at 1: their lines run one by one).
        public var batchable: Bool = false
    }

    /// The most lines in one batched run of a model whose batch dimension is dynamic; the store may allow fewer.
    static let maxBatchLines = 8

    static let what = "a PARSeq recogniser"

    /// Checks a session: one float32 [1,3,H,W] input with fixed H and W; a first output float32 [1,T,C]
    /// with C = charset entries + 1. Throws `ModelError.invalidFile` naming the file and what is wrong.
    static func signature(_ s: ModelSignature, charset: PARSeqCharset) throws -> Signature {
        try s.expectInputCount(1, of: what)
        guard let input = s.inputs.first, let output = s.outputs.first else { throw s.failure("\(what) needs an output") }
        let (h, w) = try s.imageInput(input, of: what)
        try s.expect(output, .float32, rank: 3, of: what)
        guard output.shape[2] == charset.outputClasses else {
            throw s.failure("output \(output) has \(output.shape[2]) classes, but the charset has \(charset.entries.count) "
                            + "entries (+1 for end of sequence = \(charset.outputClasses)): model and NDLmoji.yaml do not match")
        }
        return Signature(inputName: input.name, outputName: output.name, inputHeight: h, inputWidth: w,
                         steps: output.shape[1] > 0 ? output.shape[1] : nil, batchable: input.shape[0] < 0)
    }

    /// Loads the model through `store` and checks its signature. Throws `ModelError.invalidFile`.
    public func signature(store: ModelStore) async throws -> Signature {
        let charset = self.charset
        return try await store.withModel(model) { try Self.signature(ModelSignature($0), charset: charset) }
    }

    /// The model's input image for `crop` (xyxy, inside `page`) at `width`×`height`; nil for an empty crop.
    public func inputImage(page: RGBImage, crop: PixelBox, width: Int, height: Int) -> RGBImage? {
        guard crop.width > 0, crop.height > 0 else { return nil }
        switch preprocessing {
        case .ndl:
            return LineInput.ndl(page: page, x: crop.x1, y: crop.y1, width: crop.width, height: crop.height,
                                 inputWidth: width, inputHeight: height)
        case .koten:
            return LineInput.koten(page: page, x: crop.x1, y: crop.y1, width: crop.width, height: crop.height,
                                   inputWidth: width, inputHeight: height)
        }
    }

    public var models: [ModelDescriptor] { [model] }

    /// Loads the model through `store` and checks its signature against the charset.
    /// Throws `ModelError.invalidFile` naming the file and what is wrong.
    public func prepare(store: ModelStore) async throws {
        _ = try await ModelSignature.loading(model) { try await signature(store: store) }
    }

    /// Reads the line `crop` (xyxy pixels inside `page`). An empty crop reads as empty without a run.
    /// The run passes the store's inference limiter. Throws `ModelError.invalidFile`, `InferenceError`,
    /// `ModelStoreError`.
    public func read(_ crop: PixelBox, of page: RGBImage, store: ModelStore) async throws -> RecognisedText {
        try await read([LineRegion(crop, of: page)], store: store, limit: 1)[0]
    }

    /// Reads `lines` (empty crops read as empty without a run), at most `limit` runs in flight: in batched runs
    /// [N,3,H,W] as large as the store allows (`ModelStore.batchAllowance`, at most `maxBatchLines`) when the model's
    /// batch dimension is dynamic, else one line per run. Each line's input is the same as alone; each batch's
    /// logits are decoded in ONNX Runtime's buffer; its lines count for the page's `LineProgress` when its run ends. Throws `ModelError.invalidFile`, `InferenceError`,
    /// `ModelStoreError`.
    public func read(_ lines: [LineRegion], store: ModelStore, limit: Int) async throws -> [RecognisedText] {
        let widths = lines.map { $0.crop.width > 0 && $0.crop.height > 0 ? 1 : nil }
        guard widths.contains(where: { $0 != nil }) else { return lines.map { _ in .empty } }
        let recogniser = self, charset = self.charset
        let s = try await store.withModel(model) { try Self.signature(ModelSignature($0), charset: charset) }
        let perLine = 3 * s.inputHeight * s.inputWidth
        let allowance = s.batchable ? await store.batchAllowance(for: model, runs: limit, maximumLines: Self.maxBatchLines)
            : ModelStore.BatchAllowance(maxElements: perLine, maxLines: 1)
        let groups = LineBatches.partition(widths: widths.map { $0.map { _ in s.inputWidth } }, elementsPerColumn: 3 * s.inputHeight,
                                           allowance: allowance)
        return try await LineBatches.run(groups, count: lines.count, missing: .empty, limit: limit) { group, isLast in
            let images = group.map { i in
                recogniser.inputImage(page: lines[i].page, crop: lines[i].crop, width: s.inputWidth, height: s.inputHeight)
                    ?? RGBImage(width: s.inputWidth, height: s.inputHeight)
            }
            let tensor = packImageTensor(images, order: .bgr,
                                         normalisation: recogniser.preprocessing == .ndl ? .symmetric : .symmetricKoten)
            let path = recogniser.model.url.path, count = images.count
            let readings = try await store.withModel(recogniser.model) { handle in
                try await handle.run([s.inputName: tensor], outputNames: [s.outputName], releaseArena: isLast) { views in
                    guard let logits = views[s.outputName], let values = logits.floats, logits.shape.count == 3,
                          logits.shape[0] == count else {
                        throw ModelError.invalidFile(path: path, reason: "\(Self.what) returned no [N,T,C] logits")
                    }
                    let steps = logits.shape[1], classes = logits.shape[2]
                    return (0..<count).map { k in
                        PARSeqDecoder.decode(UnsafeBufferPointer(rebasing: values[(k * steps * classes)..<((k + 1) * steps * classes)]),
                                             steps: steps, classes: classes, charset: charset)
                    }
                }
            }
            LineProgress.linesRead(readings.count)
            return readings
        }
    }
}
