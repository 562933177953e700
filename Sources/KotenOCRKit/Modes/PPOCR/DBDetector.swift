import Foundation

/// PP-OCRv5 mobile's DB text detector (docs/reference-pipelines.md §4, "Step 1").
///
/// Input `x` float32 [1,3,H,W]: the page fitted so its longer side is at most `maxSide` (sides rounded to
/// multiples of 32), decoded at reduced size by libvips (no full-resolution or padded buffer), BGR,
/// ImageNet-normalised on [0,1]. Output [1,1,H,W] text probability. Returns quads in page pixels; never
/// the full-resolution page (it decodes only at the input size).
public struct DBDetector: PageDetector {
    public let model: ModelDescriptor
    /// The longer side of the detector input (default 960).
    public var maxSide: Int
    public var postprocess = DBPostprocess()

    static let normalisation = PixelNormalisation.meanStd(mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225])

    public init(model: ModelDescriptor, maxSide: Int = 960) {
        self.model = model
        self.maxSide = maxSide
    }

    /// The detector input size for a page: scaled so the longer side is at most `maxSide` (never enlarged),
    /// each side rounded to a multiple of 32 (at least 32).
    public static func inputSize(width: Int, height: Int, maxSide: Int) -> (width: Int, height: Int) {
        let ratio = min(1.0, Double(maxSide) / Double(max(width, height, 1)))
        func round32(_ v: Double) -> Int { max(32, Int((v / 32).rounded()) * 32) }
        return (round32(Double(width) * ratio), round32(Double(height) * ratio))
    }

    public var models: [ModelDescriptor] { [model] }

    /// The text lines of `page`. Throws `ImageError`, `InferenceError`, `ModelStoreError`.
    public func detect(_ page: ImageSource, store: ModelStore) async throws -> DetectedPage<Detection> {
        DetectedPage(detections: try await lines(page, store: store))
    }

    private func lines(_ page: ImageSource, store: ModelStore) async throws -> [Detection] {
        let size = Self.inputSize(width: page.width, height: page.height, maxSide: maxSide)
        let map: (values: [Float], width: Int, height: Int) = try await store.withModel(model) { handle in
            // The input tensor lives only inside this closure: activations and input are gone before crops.
            let input = try PipelineStage.decode.measure { try page.decode(fitting: size.width, size.height, kernel: .linear) }
            let tensor = packImageTensor(input, order: .bgr, normalisation: Self.normalisation)
            guard let name = handle.inputs.first?.name else {
                throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "no input")
            }
            let outputs = try await handle.run([name: tensor])
            guard let out = handle.outputs.first.flatMap({ outputs[$0.name] }), let values = out.floats,
                  out.shape.count == 4 else {
                throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "expected a [1,1,H,W] map")
            }
            return (values, out.shape[3], out.shape[2])
        }
        let sx = Double(page.width) / Double(map.width), sy = Double(page.height) / Double(map.height)
        return postprocess.boxes(map: map.values, width: map.width, height: map.height).compactMap { rect, score in
            let q = rect.quad.points.map { p in
                Point(x: min(max((p.x * sx).rounded(), 0), Double(page.width)),
                      y: min(max((p.y * sy).rounded(), 0), Double(page.height)))
            }
            let quad = Quad(q[0], q[1], q[2], q[3])
            guard quad.edgeWidth > 3, quad.edgeHeight > 3 else { return nil }
            return Detection(quad: quad, score: score)
        }
    }
}
