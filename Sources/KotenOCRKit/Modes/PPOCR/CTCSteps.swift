/// Each step's arg-max and runner-up of a CTC recogniser's output, found once and read by both the decoder
/// (`CTCDecoder`) and the alignment (`CTCAlignment`).
///
/// The output is [steps × classes] row-major (PP-OCRv5: 18385 classes a step, a few hundred steps a line): its
/// scan was the largest cost of ours in a page's recognition (docs/performance.md, "The recogniser's output, read
/// once"), so each row is read with 16-lane vector maxima and compares. Ties go as a scan from class 0 that keeps
/// only strictly larger values would have them: the arg-max is the earliest class of the largest value, the
/// runner-up the earliest of the largest among the other classes (nil with a single class).
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
        if let base = p.baseAddress {
            for t in 0..<rows {
                let row = UnsafeBufferPointer(start: base + t * classes, count: classes)
                let top = Self.largest(row, 0..<classes)
                let b = Self.first(top, in: row, 0..<classes) ?? 0
                best[t] = b
                bestP[t] = row[b]
                guard classes > 1 else { continue }
                let runnerUp = max(Self.largest(row, 0..<b), Self.largest(row, (b + 1)..<classes))
                second[t] = Self.first(runnerUp, in: row, 0..<b) ?? Self.first(runnerUp, in: row, (b + 1)..<classes) ?? -1
                secondP[t] = second[t] >= 0 ? row[second[t]] : -.infinity
            }
        }
        self.best = best
        self.bestProbability = bestP
        self.second = second
        self.secondProbability = secondP
    }

    var count: Int { best.count }

    private typealias Lanes = SIMD16<Float>

    /// The largest value of `row[range]` (-∞ for an empty range).
    private static func largest(_ row: UnsafeBufferPointer<Float>, _ range: Range<Int>) -> Float {
        guard let base = row.baseAddress, !range.isEmpty else { return -.infinity }
        let raw = UnsafeRawPointer(base + range.lowerBound)
        let whole = range.count / Lanes.scalarCount
        var lanes = Lanes(repeating: -.infinity)
        for k in 0..<whole {
            let next = raw.loadUnaligned(fromByteOffset: k * Lanes.scalarCount * 4, as: Lanes.self)
            lanes.replace(with: next, where: next .> lanes)  // a compare and a blend (pointwiseMax orders NaNs lane by lane)
        }
        var result = lanes.max()
        for i in (range.lowerBound + whole * Lanes.scalarCount)..<range.upperBound where row[i] > result { result = row[i] }
        return result
    }

    /// The earliest index of `value` in `row[range]`, if any.
    private static func first(_ value: Float, in row: UnsafeBufferPointer<Float>, _ range: Range<Int>) -> Int? {
        guard let base = row.baseAddress, !range.isEmpty else { return nil }
        let raw = UnsafeRawPointer(base + range.lowerBound)
        let whole = range.count / Lanes.scalarCount
        let target = Lanes(repeating: value)
        for k in 0..<whole {
            let lanes = raw.loadUnaligned(fromByteOffset: k * Lanes.scalarCount * 4, as: Lanes.self)
            if any(lanes .== target) {
                let start = range.lowerBound + k * Lanes.scalarCount
                return (start..<(start + Lanes.scalarCount)).first { row[$0] == value }
            }
        }
        return ((range.lowerBound + whole * Lanes.scalarCount)..<range.upperBound).first { row[$0] == value }
    }
}
