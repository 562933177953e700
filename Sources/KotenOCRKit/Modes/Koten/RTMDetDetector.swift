/// NDL Koten OCR-Lite's RTMDet line detector (`rtmdet-s-1280x1280.onnx`, mmdeploy export with NMS in the
/// graph) on ONNX Runtime.
///
/// Input `input` float32 [1,3,N,N] — the page on a black square (S = its longer side), Pillow bicubic to
/// N×N (N read from the session: 1280), BGR, (x − mean)/std on 0–255 values (`PixelNormalisation.rtmdet`).
/// Outputs `dets` float32 [1,K,5] (x1,y1,x2,y2,score) and `labels` int64 [1,K], into `RTMDetPostprocess`
/// (score > 0.3 in float32, boxes × S/N, 2 % vertical expansion, negative Y kept).
/// Reference: reference-pipelines.md §2.1; goldens `koten/preprocess/rtmdet` (tensor SHA-256).
public struct RTMDetDetector: Sendable {
    public let model: ModelDescriptor
    /// Rows are kept when the float32 score > float32(this).
    public var scoreThreshold: Float = 0.3
    /// Pages longer than this many input sides are decoded at reduced size (see `PaddedSquarePage.decode`).
    public var reducedDecodeFactor = 4

    static let what = "NDL Koten OCR-Lite's RTMDet detector"

    public init(model: ModelDescriptor) { self.model = model }

    /// Checks a session: one input `input` float32 [1,3,N,N]; outputs `dets` float32 [1,K,5] and
    /// `labels` int64 [1,K]. Returns N. Throws `ModelError.invalidFile` naming the file and what is wrong.
    static func signature(_ s: ModelSignature) throws -> Int {
        let (h, w) = try s.imageInput(try s.input("input", of: what), of: what)
        try s.expectInputCount(1, of: what)
        guard h == w else { throw s.failure("\(what): input is \(h)×\(w), expected a square") }
        let dets = try s.output("dets", of: what)
        try s.expect(dets, .float32, rank: 3, of: what)
        guard dets.shape[2] == 5 else { throw s.failure("\(what): output \(dets), expected [1,K,5] (x1,y1,x2,y2,score)") }
        try s.expect(try s.output("labels", of: what), .int64, rank: 2, of: what)
        return w
    }

    /// Loads the model through `store` and checks its signature; returns the input side N.
    /// Throws `ModelError.invalidFile`.
    public func inputSide(store: ModelStore) async throws -> Int {
        try await store.withModel(model) { try Self.signature(ModelSignature($0)) }
    }

    /// The `input` tensor for a decoded page: float32 [1,3,N,N], BGR, `PixelNormalisation.rtmdet`.
    public static func inputTensor(_ page: RGBImage, inputSide: Int) -> Tensor {
        packImageTensor(PaddedSquarePage.resized(page, inputSide: inputSide), order: .bgr, normalisation: .rtmdet)
    }

    /// Detects the lines of `source`. Returns the detections (image pixels of the upright page; y may be
    /// negative) and the full-resolution page when that is what was decoded, else nil. The input tensor
    /// exists only inside the model's run. Throws `ImageError`, `ModelError.invalidFile`, `InferenceError`,
    /// `ModelStoreError`, `DetectorOutputError`.
    public func detectWithPage(_ source: ImageSource, store: ModelStore) async throws -> (detections: [KotenDetection], page: RGBImage?) {
        let threshold = scoreThreshold, path = model.url.path, side = max(source.width, source.height)
        return try await PaddedSquarePage.detect(source, model: model, store: store, reducedDecodeFactor: reducedDecodeFactor,
                                                 inputSide: Self.signature) { handle, image, n in
            let out = try await handle.run(["input": Self.inputTensor(image, inputSide: n)], outputNames: ["dets"])
            guard let dets = out["dets"]?.floats else {
                throw ModelError.invalidFile(path: path, reason: "\(Self.what) returned no dets")
            }
            return try RTMDetPostprocess.detections(dets: dets, paddedSize: side, inputWidth: n, scoreThreshold: threshold)
        }
    }
}

extension RTMDetDetector: TextDetector {
    /// The lines of `source` as mode-neutral detections (axis-aligned quads, class 0). The pipeline uses
    /// `detectWithPage` to keep the decoded page for line crops.
    public func detect(_ page: ImageSource, store: ModelStore) async throws -> [Detection] {
        try await detectWithPage(page, store: store).detections.map { Detection(quad: $0.box.quad, score: $0.confidence) }
    }
}
