/// RTMDet (NDL Koten OCR-Lite line detector) post-processing, pure arithmetic on `dets`.
///
/// reference: docs/reference-pipelines.md §2.1 "Postprocessing"; parity README K1, K2, K3; koten `src/rtmdet.py`.
package enum RTMDetPostprocess {
    /// The detections the reference keeps, in row order.
    ///
    /// - Parameters:
    ///   - dets: `dets` float32 `[1, K, 5]` = x1,y1,x2,y2 in the `inputWidth`² input space, score.
    ///     K may be 0 or 1 (the reference crashes on K = 1; here that row is handled like any other).
    ///   - paddedSize: S = max(image width, image height) in pixels.
    ///   - inputWidth: the detector input side (1280).
    ///   - scoreThreshold: rows are kept when the float32 score > float32(threshold); a score of
    ///     exactly float32(0.3) is dropped (K2).
    /// - Returns: boxes computed in float32 as box / inputWidth, then × S (via float64, rounded
    ///   back to float32), y1 −= 0.02·h and y2 += 0.02·h, truncated toward zero, not clipped.
    /// - Throws: `DetectorOutputError.notWholeRows` when `dets.count` is not a multiple of 5.
    public static func detections(
        dets: [Float], paddedSize: Int, inputWidth: Int = 1280, scoreThreshold: Float = 0.3
    ) throws -> [KotenDetection] {
        guard dets.count % 5 == 0 else {
            throw DetectorOutputError.notWholeRows(array: "dets", count: dets.count, rowWidth: 5)
        }
        let side = Float(inputWidth)
        let s = Double(paddedSize)
        return stride(from: 0, to: dets.count, by: 5).compactMap { base in
            let score = dets[base + 4]
            guard score > scoreThreshold else { return nil }
            let v = (0..<4).map { Float(Double(dets[base + $0] / side) * s) }
            let delta = (v[3] - v[1]) * Float(0.02)
            let box = PixelBox(x1: truncateToInt32(v[0]), y1: truncateToInt32(v[1] - delta),
                               x2: truncateToInt32(v[2]), y2: truncateToInt32(v[3] + delta))
            return KotenDetection(confidence: score, box: box)
        }
    }
}
