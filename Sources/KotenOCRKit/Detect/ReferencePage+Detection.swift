extension ReferencePage {
    /// The first steps of both NDL modes: `detector` on `source` (timed as the detect stage, whose end returns
    /// the detector's activations to the system: `StageBoundary`), the full-resolution page to crop lines from
    /// (decoded again only when detection used a reduced decode or none), and the image facts the reference
    /// writes (upright size, the path as given, the file name).
    static func detect<Region: Sendable>(_ source: ImageSource, with detector: any PageDetector<Region>, store: ModelStore)
        async throws -> (detections: [Region], page: RGBImage, image: ImageInfo) {
        let detected = try await PipelineStage.detect.measure { try await detector.detect(source, store: store) }
        try Task.checkCancellation()  // a cancelled page decodes nothing more
        let page = try detected.page ?? PipelineStage.decode.measure { try source.decode() }
        let image = ImageInfo(width: page.width, height: page.height, path: source.url.relativePath,
                              name: source.url.lastPathComponent)
        return (detected.detections, page, image)
    }
}
