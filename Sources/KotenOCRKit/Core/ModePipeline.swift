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
    /// A line of `page` (the upright page, decoded) cut and turned as this mode's recogniser is given it: the
    /// pixels, upright, text running left to right (`KotenOCR.lineImages`: ground truth for training).
    func lineImage(_ line: LineOutline, of page: RGBImage) -> RGBImage
}

/// A line of a page's result as `KotenOCR.lineImages` cuts it: its outline (`PageResult.TextLine.polygon`, corners
/// clockwise from the top-left, in upright page pixels; empty for none), its box, and whether it is vertical
/// (`PageResult.TextLine.orientation`; nil: from the outline's shape, as `LineOrientation` says).
package struct LineOutline: Sendable, Equatable {
    package var polygon: [Point]
    package var box: PixelBox
    package var vertical: Bool?

    package init(polygon: [Point], box: PixelBox, vertical: Bool?) {
        self.polygon = polygon
        self.box = box
        self.vertical = vertical
    }
}

extension ModePipeline {
    /// Loads every model of the pipeline once (ONNX Runtime's own checks only).
    public func prepare(store: ModelStore) async throws {
        for model in models { try await ModelSignature.loading(model) { try await store.withModel(model) { _ in } } }
    }

    /// The NDL modes' cut (PARSeq's input, `PARSeqRecogniser`): the line's box, turned 90° counter-clockwise when
    /// taller than wide.
    package func lineImage(_ line: LineOutline, of page: RGBImage) -> RGBImage {
        let b = line.box
        let crop = page.cropped(x: b.x1, y: b.y1, width: b.width, height: b.height)
        return crop.height > crop.width ? crop.turnedCounterClockwise(quarterTurns: 1) : crop
    }
}
