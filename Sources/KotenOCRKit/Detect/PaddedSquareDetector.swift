/// NDL's padded-square detectors (DEIM 800×800, RTMDet 1280×1280) as one detection stage. The page is
/// decoded for the model's input side N (`PaddedSquarePage.decode`: at full resolution, exactly as the
/// reference reads it, unless it is longer than `reducedDecodeFactor` × N), put at the top-left of a black
/// square of its longer side S and resized to N×N (`PaddedSquarePage.resized`, the square never existing),
/// packed into the model's input tensors, run, and post-processed into `Region`s in page pixels. A model family
/// gives its signature check (which returns N), its input tensors from the N×N image, the outputs it reads and its
/// post-process (boxes × S/N): `DEIMDetector.detector(model:)`, `RTMDetDetector.detector(model:)`.
///
/// Memory: the decoded page and the N×N image are gone before the model runs; only the input tensors live through
/// the run (docs/performance.md, "Where the NDL modes' memory went": the full-resolution page held through the run
/// was 36 MB of a 12 MP photo's peak). The pipeline cuts its line crops from the file afterwards
/// (`ImageSource.decodeRegions`), so `DetectedPage.page` is nil. Reference: docs/reference-pipelines.md §1.2, §2.1.
package struct PaddedSquareDetector<Region: Sendable>: PageDetector {
    public let model: ModelDescriptor
    /// Pages longer than this many input sides are decoded at reduced size (see `PaddedSquarePage.decode`).
    public var reducedDecodeFactor: Int
    /// Checks a session (inputs, outputs, element types, shapes) and returns its input side N.
    /// Throws `ModelError.invalidFile` naming the file and the first thing wrong.
    let inputSide: @Sendable (ModelSignature) throws -> Int
    /// The model's input tensors from the page resized to N×N (`PaddedSquarePage.resized`), given N.
    let inputs: @Sendable (_ resized: RGBImage, _ inputSide: Int) -> [String: Tensor]
    /// The outputs read (nil: all of them).
    let outputNames: [String]?
    /// The regions in page pixels from the run's outputs, given N and S = the page's longer side in source pixels.
    let postprocess: @Sendable (_ outputs: [String: Tensor], _ inputSide: Int, _ paddedSize: Int) throws -> [Region]

    init(model: ModelDescriptor, reducedDecodeFactor: Int = 4,
         inputSide: @escaping @Sendable (ModelSignature) throws -> Int,
         inputs: @escaping @Sendable (RGBImage, Int) -> [String: Tensor], outputNames: [String]?,
         postprocess: @escaping @Sendable ([String: Tensor], Int, Int) throws -> [Region]) {
        self.model = model
        self.reducedDecodeFactor = reducedDecodeFactor
        self.inputSide = inputSide
        self.inputs = inputs
        self.outputNames = outputNames
        self.postprocess = postprocess
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
        let inputSide = self.inputSide, inputs = self.inputs, factor = reducedDecodeFactor
        let outputNames = self.outputNames, postprocess = self.postprocess
        let paddedSize = max(source.width, source.height)
        return try await store.withModel(model) { handle in
            let n = try inputSide(ModelSignature(handle))
            // Room for what this stage holds at its largest is made before the page is decoded, so another mode's idle
            // models go first, not after the buffers have grown beside them: the decoded page with its N×N image and
            // tensors, or later the tensors with the run's activations (the page is gone by then), whichever is more.
            let elements = 3 * n * n
            let room = max(await store.activationEstimate(model, inputElements: elements) + 4 * elements,
                           PaddedSquarePage.bufferBytes(source, inputSide: n, reducedDecodeFactor: factor))
            // The page and its N×N image live only in this expression: the tensors alone go into the run.
            let tensors = try await store.withRoom(room, for: model) {
                inputs(PaddedSquarePage.resized(
                    try PaddedSquarePage.decode(source, inputSide: n, reducedDecodeFactor: factor).image, inputSide: n), n)
            }
            // libvips' freed buffers (the EXIF-rotated copy of a photo: 36 MB at 12 MP) stay in the heap unless trimmed.
            AllocatorPolicy.trim()
            let out = try await handle.run(tensors, outputNames: outputNames)
            return DetectedPage(detections: try postprocess(out, n, paddedSize))
        }
    }
}
