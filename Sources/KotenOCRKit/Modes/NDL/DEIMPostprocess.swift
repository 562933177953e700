/// DEIMv2 (NDLOCR-Lite layout detector) post-processing, pure arithmetic on the raw outputs.
///
/// reference: docs/reference-pipelines.md §1.2 "Postprocessing"; parity README N1, N2; NDL `src/deim.py`.
package enum DEIMPostprocess {
    /// The detections the reference keeps, in row order.
    ///
    /// - Parameters:
    ///   - labels: `labels` int64 `[1, Q]`, 1-based class ids.
    ///   - boxes: `boxes` float32 `[1, Q, 4]`, x1,y1,x2,y2 in the `inputWidth`² input space.
    ///   - scores: `scores` float32 `[1, Q]`.
    ///   - charCounts: `char_count` int64 `[1, Q]`, or `nil` for a model without that head
    ///     (every detection then gets class 100).
    ///   - paddedSize: S = max(image width, image height) in pixels.
    ///   - inputWidth: the detector input side (800 for `deim-s-1024x1024.onnx`).
    ///   - scoreThreshold: rows are kept when score > threshold (strict, compared in float32).
    /// - Returns: kept rows with boxes scaled by float32(S / inputWidth) in float32, truncated
    ///   toward zero and clipped to [0, S]. As in the reference, only boxes and scores are
    ///   filtered: the k-th kept row takes `labels[k]` and `charCounts[k]`, which is the row's own
    ///   label only for score-sorted outputs (`unsorted_rows_label_shift`). Rows whose class
    ///   index falls outside `NDLClass.all` (a reference KeyError) are dropped.
    /// - Throws: `DetectorOutputError.sizeMismatch` when the array sizes do not agree.
    public static func detections(
        labels: [Int64], boxes: [Float], scores: [Float], charCounts: [Int64]?,
        paddedSize: Int, inputWidth: Int = 800, scoreThreshold: Float = 0.25
    ) throws -> [NDLDetection] {
        let q = scores.count
        guard boxes.count == 4 * q else {
            throw DetectorOutputError.sizeMismatch(array: "boxes", count: boxes.count, expected: 4 * q)
        }
        guard labels.count == q else {
            throw DetectorOutputError.sizeMismatch(array: "labels", count: labels.count, expected: q)
        }
        if let charCounts, charCounts.count != q {
            throw DetectorOutputError.sizeMismatch(array: "char_count", count: charCounts.count, expected: q)
        }
        let scale = Float(Double(paddedSize) / Double(inputWidth))
        let kept = (0..<q).filter { scores[$0] > scoreThreshold }
        var result: [NDLDetection] = []
        for (k, row) in kept.enumerated() {
            func coordinate(_ i: Int) -> Int {
                min(max(truncateToInt32(boxes[4 * row + i] * scale), 0), paddedSize)
            }
            let classIndex = Int(labels[k]) - 1
            guard NDLClass.all.indices.contains(classIndex) else { continue }
            result.append(NDLDetection(
                classIndex: classIndex,
                confidence: scores[row],
                box: PixelBox(x1: coordinate(0), y1: coordinate(1), x2: coordinate(2), y2: coordinate(3)),
                charCountClass: charCounts.map { Double($0[k]) } ?? 100))
        }
        return result
    }
}
