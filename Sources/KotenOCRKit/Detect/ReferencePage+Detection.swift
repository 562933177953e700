extension ReferencePage {
    /// The first step of both NDL modes: `detector` on `source` (timed as the detect stage, whose end returns
    /// the detector's activations to the system: `StageBoundary`), and the image facts the reference writes
    /// (upright size, the path as given, the file name). No page is kept: the lines are cut from the image
    /// afterwards (`lineImages`).
    static func detect<Region: Sendable>(_ source: ImageSource, with detector: any PageDetector<Region>, store: ModelStore)
        async throws -> (detections: [Region], image: ImageInfo) {
        let detected = try await PipelineStage.detect.measure { try await detector.detect(source, store: store) }
        try Task.checkCancellation()  // a cancelled page decodes nothing more
        let image = ImageInfo(width: source.width, height: source.height, path: source.url.relativePath,
                              name: source.url.lastPathComponent)
        return (detected.detections, image)
    }

    /// The crops of `lines` (their boxes clamped to the page, as the recognisers read them), cut from `source` in one
    /// pass (timed as a decode stage). Throws `ImageError`.
    static func lineImages(_ source: ImageSource, lines: [RecognitionLine], image: ImageInfo) throws -> LineImages {
        try PipelineStage.decode.measure {
            try LineImages(source, boxes: lines.map { LineCrop.clamped($0.box, imageWidth: image.width, imageHeight: image.height) })
        }
    }
}
