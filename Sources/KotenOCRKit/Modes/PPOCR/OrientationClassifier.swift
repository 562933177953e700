/// PP-OCR's line-orientation classifier (docs/reference-pipelines.md §4, "Step 3"): input `x` float32 [1,3,80,160]
/// (the line resized to height 80 keeping its aspect ratio, at most 160 wide, right-padded with zeros,
/// BGR, x/127.5 − 1); output [1,2] probabilities of 0° and 180°. A line is turned when 180° wins with
/// probability above `threshold` (0.9). The `ppocr` pipeline asks it for the page's votes
/// (`upsideDownProbability`, `PPOCRPageOrientation`), not line by line.
public struct OrientationClassifier: Sendable {
    public let model: ModelDescriptor
    public var threshold: Float = 0.9

    public init(model: ModelDescriptor) { self.model = model }

    /// Whether `line` is upside down: 180° wins with a probability above `threshold`.
    public func isUpsideDown(_ line: RGBImage, store: ModelStore) async throws -> Bool {
        try await upsideDownProbability(line, store: store) > max(0.5, threshold)
    }

    /// The model's probability (0–1) that `line` (8-bit RGB, read left to right when upright) is upside down;
    /// 0 for an empty image. Throws `InferenceError`, `ModelStoreError`.
    public func upsideDownProbability(_ line: RGBImage, store: ModelStore) async throws -> Float {
        guard line.width > 0, line.height > 0 else { return 0 }
        let w = min(160, max(1, Int((80 * Double(line.width) / Double(line.height)).rounded(.up))))
        let tensor = packImageTensor(bilinearResize(line, width: w, height: 80), order: .bgr,
                                     normalisation: .symmetric, tensorWidth: 160)
        return try await store.withModel(model) { handle in
            guard let input = handle.inputs.first?.name, let output = handle.outputs.first?.name else {
                throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "no input/output")
            }
            let result = try await handle.run([input: tensor], outputNames: [output])
            guard let p = result[output]?.floats, p.count >= 2 else {
                throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "expected [1,2] output")
            }
            let total = p[0] + p[1]
            return total > 0 ? p[1] / total : 0
        }
    }
}
