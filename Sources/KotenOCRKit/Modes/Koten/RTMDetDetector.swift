/// NDL Koten OCR-Lite's RTMDet line detector (`rtmdet-s-1280x1280.onnx`, mmdeploy export with NMS in the
/// graph) on ONNX Runtime, as a `PaddedSquareDetector` (`detector(model:)`).
///
/// Input `input` float32 [1,3,N,N] — the page on a black square (S = its longer side), Pillow bicubic to
/// N×N (N read from the session: 1280), BGR, (x − mean)/std on 0–255 values (`PixelNormalisation.rtmdet`).
/// Outputs `dets` float32 [1,K,5] (x1,y1,x2,y2,score) and `labels` int64 [1,K], into `RTMDetPostprocess`
/// (score > 0.3 in float32, boxes × S/N, 2 % vertical expansion, negative Y kept).
/// Reference: docs/reference-pipelines.md §2.1; goldens `koten/preprocess/rtmdet` (tensor SHA-256).
package enum RTMDetDetector {
    static let what = "NDL Koten OCR-Lite's RTMDet detector"

    /// Checks a session: one input `input` float32 [1,3,N,N]; outputs `dets` float32 [1,K,5] and
    /// `labels` int64 [1,K]. Returns N. Throws `ModelError.invalidFile` naming the file and what is wrong.
    static func signature(_ s: ModelSignature) throws -> Int {
        let (h, w) = try s.imageInput(try s.input("input", of: what), of: what)
        try s.expectInputCount(1, of: what)
        guard h == w else { throw s.failure("\(what): input is \(h)×\(w), expected a square") }
        let dets = try s.output("dets", of: what)
        try s.expect(dets, .float32, rank: 3, of: what)
        guard dets.shape[2] == 5 else { throw s.failure("\(what): output \(dets), expected [1,K,5] (x1,y1,x2,y2,score)") }
        try s.expect(try s.output("labels", of: what), .int64, rank: 2, of: what)
        return w
    }

    /// The `input` tensor for a decoded page: float32 [1,3,N,N], BGR, `PixelNormalisation.rtmdet`.
    public static func inputTensor(_ page: RGBImage, inputSide: Int) -> Tensor {
        packed(PaddedSquarePage.resized(page, inputSide: inputSide))
    }

    /// The `input` tensor from the page already resized to N×N.
    static func packed(_ resized: RGBImage) -> Tensor { packImageTensor(resized, order: .bgr, normalisation: .rtmdet) }

    /// RTMDet on `model` as the `koten` mode's detection stage: the lines of a page (image pixels of the
    /// upright page; y may be negative), rows kept when the float32 score > float32(`scoreThreshold`).
    /// Its `detect` throws `ImageError`, `ModelError.invalidFile`, `InferenceError`, `ModelStoreError`,
    /// `DetectorOutputError`.
    public static func detector(model: ModelDescriptor, scoreThreshold: Float = 0.3) -> PaddedSquareDetector<KotenDetection> {
        let path = model.url.path
        return PaddedSquareDetector(model: model, inputSide: signature, inputs: { resized, _ in
            ["input": packed(resized)]
        }, outputNames: ["dets"]) { out, n, paddedSize in
            guard let dets = out["dets"]?.floats else {
                throw ModelError.invalidFile(path: path, reason: "\(what) returned no dets")
            }
            return try RTMDetPostprocess.detections(dets: dets, paddedSize: paddedSize, inputWidth: n, scoreThreshold: scoreThreshold)
        }
    }
}
