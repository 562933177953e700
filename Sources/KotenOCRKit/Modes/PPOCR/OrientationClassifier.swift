/// PP-OCR's line-orientation classifier (docs/reference-pipelines.md §4, "Step 3"): input `x` float32 [N,3,80,160]
/// (each line resized to height 80 keeping its aspect ratio, at most 160 wide, right-padded with zeros,
/// BGR, x/127.5 − 1); output [N,2] probabilities of 0° and 180°. A line is turned when 180° wins with
/// probability above `threshold` (0.9). The `ppocr` pipeline asks it for the page's votes
/// (`upsideDownProbabilities`, `PPOCRPageOrientation`) and for the lines across the main ones. Lines are classified
/// in batches as large as the store allows (at most `maxBatchLines`), every line's input the same as alone.
package struct OrientationClassifier: Sendable {
    public let model: ModelDescriptor
    public var threshold: Float = 0.9
    /// The most lines in one run (PaddleOCR's `cls_batch_num`); the store may allow fewer.
    static let maxBatchLines = 6

    public init(model: ModelDescriptor) { self.model = model }

    /// Whether `line` is upside down: 180° wins with a probability above `threshold`.
    public func isUpsideDown(_ line: RGBImage, store: ModelStore) async throws -> Bool {
        try await upsideDown([line], store: store, limit: 1)[0]
    }

    /// Whether each of `lines` is upside down (an empty line is not), at most `limit` runs in flight.
    /// Throws `InferenceError`, `ModelStoreError`.
    func upsideDown(_ lines: [RGBImage], store: ModelStore, limit: Int) async throws -> [Bool] {
        let threshold = max(0.5, self.threshold)
        return try await upsideDownProbabilities(lines, store: store, limit: limit).map { $0 > threshold }
    }

    /// The model's probability (0–1) that each of `lines` (8-bit RGB, read left to right when upright) is upside
    /// down; 0 for an empty image. At most `limit` runs in flight. Throws `InferenceError`, `ModelStoreError`.
    func upsideDownProbabilities(_ lines: [RGBImage], store: ModelStore, limit: Int) async throws -> [Float] {
        let widths = lines.map { $0.width > 0 && $0.height > 0 ? 160 : nil }
        let allowance = await store.batchAllowance(for: model, runs: limit, maximumLines: Self.maxBatchLines)
        let groups = LineBatches.partition(widths: widths, elementsPerColumn: 3 * 80, allowance: allowance)
        let model = self.model
        return try await LineBatches.run(groups, count: lines.count, missing: 0, limit: limit) { group, isLast in
            let images = group.map { i -> RGBImage in
                let w = min(160, max(1, Int((80 * Double(lines[i].width) / Double(lines[i].height)).rounded(.up))))
                return bilinearResize(lines[i], width: w, height: 80)
            }
            let tensor = packImageTensor(images, order: .bgr, normalisation: .symmetric, tensorWidth: 160)
            return try await store.withModel(model) { handle in
                guard let input = handle.inputs.first?.name, let output = handle.outputs.first?.name else {
                    throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "no input/output")
                }
                let result = try await handle.run([input: tensor], outputNames: [output], releaseArena: isLast)
                guard let p = result[output]?.floats, p.count >= 2 * images.count else {
                    throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "expected [N,2] output")
                }
                return images.indices.map { k in
                    let total = p[2 * k] + p[2 * k + 1]
                    return total > 0 ? p[2 * k + 1] / total : 0
                }
            }
        }
    }
}
