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
public struct PARSeqRecogniser: LineReader {
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
    }

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
                         steps: output.shape[1] > 0 ? output.shape[1] : nil)
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
        guard crop.width > 0, crop.height > 0 else { return .empty }
        let recogniser = self
        return try await store.withModel(model) { handle in
            let s = try Self.signature(ModelSignature(handle), charset: recogniser.charset)
            guard let image = recogniser.inputImage(page: page, crop: crop, width: s.inputWidth, height: s.inputHeight) else {
                return .empty
            }
            let tensor = packImageTensor(image, order: .bgr,
                                         normalisation: recogniser.preprocessing == .ndl ? .symmetric : .symmetricKoten)
            let out = try await handle.run([s.inputName: tensor], outputNames: [s.outputName])
            guard let logits = out[s.outputName], let values = logits.floats, logits.shape.count == 3 else {
                throw ModelError.invalidFile(path: recogniser.model.url.path, reason: "\(Self.what) returned no [1,T,C] logits")
            }
            return PARSeqDecoder.decode(values, steps: logits.shape[1], classes: logits.shape[2], charset: recogniser.charset)
        }
    }
}
