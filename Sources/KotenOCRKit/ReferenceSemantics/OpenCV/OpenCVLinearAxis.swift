/// One axis of OpenCV's `cv2.resize(..., interpolation=INTER_LINEAR)` for 8-bit images (OpenCV 4.11),
/// described from its documented arithmetic: half-pixel centres, no antialiasing, 11-bit fixed-point
/// weights (INTER_RESIZE_COEF_BITS).
///
/// - scale = 1 / (output / input), in Double (OpenCV's own inversion of its inverse scale);
/// - position f = Float((i + 0.5) × scale − 0.5), s = floor(f), fraction t = f − s in Float;
/// - weights (1 − t, t) × 2048 rounded half to even (`cvRound`) to Int16;
/// - horizontally, a position left of the image reads pixel 0 with t = 0, one at or past the last pixel
///   reads the last pixel with t = 0 (and only that pixel: `end` marks where this starts);
///   vertically the two rows s and s + 1 are clamped to the image but the weights are kept.
struct OpenCVLinearAxis: Sendable {
    static let coefficientScale: Float = 2048

    /// First source pixel (clamped horizontally; raw `floor` vertically).
    let start: [Int]
    /// Weight pairs (2 per output pixel).
    let weights: [Int16]
    /// First output index from which only `start` is read (horizontal use).
    let end: Int

    init(inputSize: Int, outputSize: Int, clampPositions: Bool) {
        let scale = 1.0 / (Double(outputSize) / Double(inputSize))
        var start = [Int](repeating: 0, count: outputSize)
        var weights = [Int16](repeating: 0, count: outputSize * 2)
        var end = outputSize
        for i in 0..<outputSize {
            var f = Float((Double(i) + 0.5) * scale - 0.5)
            var s = Int(f.rounded(.down))
            f -= Float(s)
            if clampPositions {
                if s < 0 { f = 0; s = 0 }
                if s + 1 >= inputSize {
                    end = min(end, i)
                    if s >= inputSize - 1 { f = 0; s = inputSize - 1 }
                }
            }
            start[i] = s
            weights[2 * i] = Self.fixedPoint(1 - f)
            weights[2 * i + 1] = Self.fixedPoint(f)
        }
        self.start = start
        self.weights = weights
        self.end = end
    }

    /// `saturate_cast<short>(w * 2048)`: round half to even, clamp to Int16.
    static func fixedPoint(_ w: Float) -> Int16 {
        let v = (w * coefficientScale).rounded(.toNearestOrEven)
        return Int16(max(-32768, min(32767, v)))
    }
}
