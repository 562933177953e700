import CKernels

/// Each step's arg-max and runner-up of a CTC recogniser's output, found once and read by both the decoder
/// (`CTCDecoder`) and the alignment (`CTCAlignment`).
///
/// The output is [steps × classes] row-major (PP-OCRv5: 18385 classes a step, a few hundred steps a line): its
/// scan was the largest cost of ours in a page's recognition (docs/performance.md, "The recogniser's output, read
/// once"), so each row is read with 16-lane vector maxima and compares, in C (`Sources/CKernels`): Swift's generic
/// SIMD types cost a witness-table call per lane operation in a debug build, where this scan was half of a page's
/// CPU time. Ties go as a scan from class 0 that keeps only strictly larger values would have them: the arg-max is
/// the earliest class of the largest value, the runner-up the earliest of the largest among the other classes
/// (-1 with a single class).
struct CTCSteps {
    /// Per step: the arg-max class and its probability.
    let best: [Int]
    let bestProbability: [Float]
    /// Per step: the runner-up class (-1 with one class) and its probability (-∞ then).
    let second: [Int]
    let secondProbability: [Float]

    /// Reads `p`'s first `steps` rows of `classes` values. Needs `p.count >= steps * classes` and `classes >= 1`
    /// (fewer steps are read otherwise).
    init(_ p: UnsafeBufferPointer<Float>, steps: Int, classes: Int) {
        let rows = classes > 0 && steps > 0 ? min(steps, p.count / classes) : 0
        var best = [Int](repeating: 0, count: rows), second = [Int](repeating: -1, count: rows)
        var bestP = [Float](repeating: 0, count: rows), secondP = [Float](repeating: -.infinity, count: rows)
        if let base = p.baseAddress, rows > 0 {
            koten_top2_rows(base, rows, classes, &best, &bestP, &second, &secondP)
        }
        self.best = best
        self.bestProbability = bestP
        self.second = second
        self.secondProbability = secondP
    }

    var count: Int { best.count }
}
