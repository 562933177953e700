/// NDL's padded-square detectors (DEIM 800×800, RTMDet 1280×1280) as one detection stage. The page is
/// decoded for the model's input side N (`PaddedSquarePage.decode`: at full resolution, exactly as the
/// reference reads it, unless it is longer than `reducedDecodeFactor` × N), put at the top-left of a black
/// square of its longer side S and resized to N×N (`PaddedSquarePage.resized`, the square never existing),
/// run, and post-processed into `Region`s in page pixels. A model family gives its signature check (which
/// returns N) and its run (input tensors, outputs through its post-process, boxes × S/N):
/// `DEIMDetector.detector(model:)`, `RTMDetDetector.detector(model:)`. The input tensor and the decoded
/// image for detection exist only inside the model's run; the full-resolution page comes back in
/// `DetectedPage.page` when that is what was decoded. Reference: docs/reference-pipelines.md §1.2, §2.1.
public struct PaddedSquareDetector<Region: Sendable>: PageDetector {
    public let model: ModelDescriptor
    /// Pages longer than this many input sides are decoded at reduced size (see `PaddedSquarePage.decode`).
    public var reducedDecodeFactor: Int
    /// Checks a session (inputs, outputs, element types, shapes) and returns its input side N.
    /// Throws `ModelError.invalidFile` naming the file and the first thing wrong.
    let inputSide: @Sendable (ModelSignature) throws -> Int
    /// Runs the model on the page decoded for detection at input side N, S = the page's longer side in
    /// source pixels; returns the regions in page pixels.
    let run: @Sendable (_ handle: ModelHandle, _ image: RGBImage, _ inputSide: Int, _ paddedSize: Int) async throws -> [Region]

    init(model: ModelDescriptor, reducedDecodeFactor: Int = 4,
         inputSide: @escaping @Sendable (ModelSignature) throws -> Int,
         run: @escaping @Sendable (ModelHandle, RGBImage, Int, Int) async throws -> [Region]) {
        self.model = model
        self.reducedDecodeFactor = reducedDecodeFactor
        self.inputSide = inputSide
        self.run = run
    }

    public var models: [ModelDescriptor] { [model] }

    /// Loads the model through `store` and checks its signature. Throws `ModelError.invalidFile`.
    public func prepare(store: ModelStore) async throws {
        let model = self.model, inputSide = self.inputSide
        _ = try await ModelSignature.loading(model) { try await store.withModel(model) { try inputSide(ModelSignature($0)) } }
    }

    /// Detects the regions of `source`. Throws `ImageError`, `ModelError.invalidFile`, `InferenceError`,
    /// `ModelStoreError`, `DetectorOutputError`.
    public func detect(_ source: ImageSource, store: ModelStore) async throws -> DetectedPage<Region> {
        let inputSide = self.inputSide, run = self.run, factor = reducedDecodeFactor
        let paddedSize = max(source.width, source.height)
        return try await store.withModel(model) { handle in
            let n = try inputSide(ModelSignature(handle))
            let decoded = try PaddedSquarePage.decode(source, inputSide: n, reducedDecodeFactor: factor)
            let detections = try await run(handle, decoded.image, n, paddedSize)
            return DetectedPage(detections: detections, page: decoded.fullResolution ? decoded.image : nil)
        }
    }
}
