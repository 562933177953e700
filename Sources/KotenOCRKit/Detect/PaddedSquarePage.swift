/// The page image of NDL's padded-square detectors (DEIM 800×800, RTMDet 1280×1280): the page at the
/// top-left of a black S×S square (S = its longer side), resized with Pillow's bicubic filter — without the
/// square ever existing (`PillowBicubic.resizePadded`). Reference: reference-pipelines.md §1.2, §2.1.
public enum PaddedSquarePage {
    /// Decodes `source` for a detector of input side `inputSide`. A page whose longer side is at most
    /// `reducedDecodeFactor` × `inputSide` is decoded at full resolution, exactly as the reference reads
    /// it (byte parity of the detector input). A larger page is decoded at reduced size where the format
    /// allows (JPEG shrink-on-load by 2, 4 or 8, keeping its longer side at least that limit), so a
    /// 10000×14000 scan never exists in memory at full size for detection; such pages are outside byte
    /// parity (their detector input differs from the reference's by the shrink-on-load filter).
    /// Returns the image and whether it is the full-resolution page (reused for line crops).
    /// Throws `ImageError` naming the file.
    public static func decode(_ source: ImageSource, inputSide: Int, reducedDecodeFactor: Int = 4) throws
        -> (image: RGBImage, fullResolution: Bool) {
        let side = max(source.width, source.height)
        let limit = max(1, reducedDecodeFactor) * inputSide
        guard side > limit else { return (try source.decode(), true) }
        func atLeast(_ v: Int) -> Int { max(1, (v * limit + side - 1) / side) }
        let image = try source.decode(atLeast: atLeast(source.width), atLeast(source.height))
        return (image, image.width == source.width && image.height == source.height)
    }

    /// `image` on a black square of its longer side, resized to `inputSide`×`inputSide` (Pillow bicubic,
    /// 8-bit RGB). Memory: the output and the resampler's row window, never the square.
    public static func resized(_ image: RGBImage, inputSide: Int) -> RGBImage {
        PillowBicubic.resizePadded(image, squareSide: max(image.width, image.height), to: inputSide)
    }

    /// Runs a padded-square detector on `source` through `store`: `inputSide` checks the session and gives
    /// N, the page is decoded for it (`decode`), and `run` makes the input, runs the model and post-processes
    /// with the decoded image. Returns what `run` returns and the full-resolution page when that is what was
    /// decoded (else nil). The input tensor and the decoded image for detection exist only inside.
    static func detect<D: Sendable>(_ source: ImageSource, model: ModelDescriptor, store: ModelStore, reducedDecodeFactor: Int,
                                    inputSide: @escaping @Sendable (ModelSignature) throws -> Int,
                                    run: @escaping @Sendable (ModelHandle, RGBImage, Int) async throws -> D)
        async throws -> (detections: D, page: RGBImage?) {
        try await store.withModel(model) { handle in
            let n = try inputSide(ModelSignature(handle))
            let decoded = try decode(source, inputSide: n, reducedDecodeFactor: reducedDecodeFactor)
            let detections = try await run(handle, decoded.image, n)
            return (detections, decoded.fullResolution ? decoded.image : nil)
        }
    }
}
