/// One mode's whole trip for a page: decode → detect → crop → recognise → order. Each mode holds its
/// detector and line reader behind `PageDetector` / `LineReader` (its own, or those the configuration
/// supplies: `OCRConfiguration.stages`); the pipeline composes them.
package protocol ModePipeline: Sendable {
    var mode: OCRMode { get }
    /// Every model the pipeline may use (registered with the store so it can plan the mode's memory).
    var models: [ModelDescriptor] { get }
    /// Loads the mode's models through `store` and checks each one's signature (inputs, outputs, element
    /// types, shapes, charset) — what `read` otherwise does on first use. Throws `ModelError.invalidFile`
    /// naming the file and what is wrong, `ModelStoreError`.
    func prepare(store: ModelStore) async throws
    /// Reads one page. `limit` bounds how many lines are in flight at once. Throws `ImageError`,
    /// `InferenceError`, `ModelStoreError`, `ModelError`.
    func read(_ page: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult
}

extension ModePipeline {
    /// Loads every model of the pipeline once (ONNX Runtime's own checks only).
    public func prepare(store: ModelStore) async throws {
        for model in models { try await ModelSignature.loading(model) { try await store.withModel(model) { _ in } } }
    }
}
