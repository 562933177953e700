/// NDLOCR-Lite's DEIMv2 layout detector (`deim-s-1024x1024.onnx`) on ONNX Runtime, as a
/// `PaddedSquareDetector` (`detector(model:)`).
///
/// Inputs: `images` float32 [1,3,N,N] — the page on a black square (S = its longer side), Pillow bicubic to
/// N×N (N read from the session: 800 for NDL's file despite its name), RGB, (x/255 − mean)/std with
/// ImageNet's mean and std (`PixelNormalisation.deim`); `orig_target_sizes` int64 [1,2] = [[N, N]], as
/// the reference passes. Outputs `labels` int64 [1,Q], `boxes` float32 [1,Q,4], `scores` float32 [1,Q],
/// optional `char_count` int64 [1,Q], into `DEIMPostprocess` (score > 0.25, boxes × S/N).
/// Reference: docs/reference-pipelines.md §1.2; goldens `ndl/preprocess/deim` (tensor SHA-256).
package enum DEIMDetector {
    static let what = "NDLOCR-Lite's DEIM detector"

    /// What the session says, checked.
    public struct Signature: Sendable, Equatable {
        /// N of the [1,3,N,N] `images` input.
        public var inputSide: Int
        /// Whether the model has the `char_count` head (without it every line is read by the 100 model).
        public var hasCharCount: Bool
    }

    /// Checks a session: inputs `images` float32 [1,3,N,N] and `orig_target_sizes` int64 [1,2]; outputs
    /// `labels` int64, `boxes` float32 [.,Q,4], `scores` float32, optional `char_count` int64.
    /// Throws `ModelError.invalidFile` naming the file and the first thing wrong.
    static func signature(_ s: ModelSignature) throws -> Signature {
        let (h, w) = try s.imageInput(try s.input("images", of: what), of: what)
        guard h == w else { throw s.failure("\(what): input images is \(h)×\(w), expected a square") }
        try s.expect(try s.input("orig_target_sizes", of: what), .int64, rank: 2, of: what)
        try s.expectInputCount(2, of: what)
        try s.expect(try s.output("labels", of: what), .int64, rank: 2, of: what)
        let boxes = try s.output("boxes", of: what)
        try s.expect(boxes, .float32, rank: 3, of: what)
        guard boxes.shape[2] == 4 else { throw s.failure("\(what): output \(boxes), expected [1,Q,4] boxes") }
        try s.expect(try s.output("scores", of: what), .float32, rank: 2, of: what)
        let charCount = s.outputs.first { $0.name == "char_count" }
        if let charCount { try s.expect(charCount, .int64, rank: 2, of: what) }
        return Signature(inputSide: w, hasCharCount: charCount != nil)
    }

    /// The `images` tensor for a decoded page: float32 [1,3,N,N], RGB, `PixelNormalisation.deim`.
    public static func inputTensor(_ page: RGBImage, inputSide: Int) -> Tensor {
        packed(PaddedSquarePage.resized(page, inputSide: inputSide))
    }

    /// The `images` tensor from the page already resized to N×N.
    static func packed(_ resized: RGBImage) -> Tensor { packImageTensor(resized, order: .rgb, normalisation: .deim) }

    /// DEIM on `model` as the `ndl` mode's detection stage: the layout of a page (image pixels of the upright
    /// page), rows kept when score > `scoreThreshold` (the reference's `--det-conf-threshold`).
    /// Its `detect` throws `ImageError`, `ModelError.invalidFile`, `InferenceError`, `ModelStoreError`,
    /// `DetectorOutputError`.
    public static func detector(model: ModelDescriptor, scoreThreshold: Float = 0.25) -> PaddedSquareDetector<NDLDetection> {
        let path = model.url.path
        return PaddedSquareDetector(model: model, inputSide: { try signature($0).inputSide }, inputs: { resized, n in
            ["images": packed(resized),
             "orig_target_sizes": Tensor(shape: [1, 2], int64s: [Int64(n), Int64(n)])]
        }, outputNames: nil) { out, n, paddedSize in
            guard let labels = out["labels"]?.int64s, let boxes = out["boxes"]?.floats, let scores = out["scores"]?.floats else {
                throw ModelError.invalidFile(path: path, reason: "\(what) returned no labels, boxes or scores")
            }
            return try DEIMPostprocess.detections(labels: labels, boxes: boxes, scores: scores, charCounts: out["char_count"]?.int64s,
                                                  paddedSize: paddedSize, inputWidth: n, scoreThreshold: scoreThreshold)
        }
    }
}
