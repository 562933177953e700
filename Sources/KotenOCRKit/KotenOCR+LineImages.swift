import Foundation

extension KotenOCR {
    /// The lines `lines` of a page, each cut and turned as the configured mode's recogniser is given it (ppocr: the
    /// outline warped upright, a vertical line turned a quarter counter-clockwise; the NDL modes: the box, turned
    /// when taller than wide), in the order given: ground truth for training a recogniser (`koten-ocr serve`'s
    /// `GET /v1/jobs/{id}/groundtruth`, docs/serve.md).
    ///
    /// `source` is the page as opened (`open`, with the configured pixel limit), `rotation` the result's
    /// (`PageResult.rotation`): the outlines are in the upright page's pixels. No model runs; the page is decoded once,
    /// whole, after the store has made room for its bytes (`ModelStore.withRoom`, as a stage's buffers are: idle
    /// models evicted, or `ModelStoreError.budgetTooSmall`), and freed before this returns. Throws `ImageError`
    /// (the decode), `ModelError` (the mode's model files, read to build its pipeline), `ModelStoreError`.
    package func lineImages(_ lines: [LineOutline], of source: ImageSource, rotation: PageRotation) async throws -> [RGBImage] {
        guard !lines.isEmpty else { return [] }
        let pipeline = try await activate(configuration.mode)
        let upright = source.turnedUpright(from: rotation)
        let cut = {
            try PipelineStage.decode.measure {
                let page = try upright.decode()
                return lines.map { pipeline.lineImage($0, of: page) }
            }
        }
        guard let model = pipeline.models.first(where: { $0.stage == .detection }) ?? pipeline.models.first else { return try cut() }
        return try await store.withRoom(upright.width * upright.height * 3, for: model) {
            try Task.checkCancellation()
            return try cut()
        }
    }
}
