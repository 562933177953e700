/// One mode's whole trip for a page: decode → detect → crop → recognise → order. Each mode plugs its
/// detector and recogniser in behind `TextDetector` / `TextRecogniser`; the pipeline composes them.
public protocol ModePipeline: Sendable {
    var mode: OCRMode { get }
    /// Every model the pipeline may use (registered with the store so it can plan the mode's memory).
    var models: [ModelDescriptor] { get }
    /// Reads one page. `limit` bounds how many lines are in flight at once. Throws `ImageError`,
    /// `InferenceError`, `ModelStoreError`.
    func read(_ page: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult
}
