/// One axis of Pillow's antialiased convolution resampling (`Image.resize`, Pillow 12), with the
/// BICUBIC filter (a = −0.5, support 2): for every output pixel the first input pixel it reads, how
/// many it reads, and fixed-point weights with 22 fractional bits.
///
/// Geometry (from Pillow's documented behaviour, written here from its description):
/// - scale = input / output; the filter is stretched by max(scale, 1) (antialiasing when shrinking),
///   so the support is 2 × max(scale, 1) input pixels on each side.
/// - Output pixel i is centred at (i + 0.5) × scale in input coordinates; input pixel x is centred
///   at x + 0.5. Taps run from trunc(centre − support + 0.5) (at least 0) to trunc(centre + support + 0.5)
///   (at most the input size), exclusive.
/// - Weights are filter((x − centre + 0.5) / max(scale, 1)) in Double, divided by their sum, then
///   rounded half away from zero to integers of 2^22.
///
/// `realSize` ≤ `inputSize` supports a virtual black canvas: the weights are those of the whole
/// `inputSize` input (identical normalisation), but taps at or past `realSize` (zero pixels, which add
/// nothing to an integer sum) are dropped from `count`.
struct PillowAxis: Sendable {
    static let precisionBits = 22
    static let rounding = Int32(1) << Int32(precisionBits - 1)

    let inputSize: Int
    let realSize: Int
    let outputSize: Int
    /// Stride of `weights` per output pixel (Pillow's ksize).
    let taps: Int
    /// First input pixel read by each output pixel.
    let first: [Int]
    /// Number of input pixels read by each output pixel, restricted to real pixels (may be 0).
    let count: [Int]
    /// `outputSize × taps` weights; only the first `count[i]` of row i are used.
    let weights: [Int32]

    init(inputSize: Int, realSize: Int, outputSize: Int) {
        self.inputSize = inputSize
        self.realSize = min(max(0, realSize), inputSize)
        self.outputSize = max(0, outputSize)
        guard outputSize > 0 else {
            (taps, first, count, weights) = (0, [], [], [])
            return
        }
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = 2.0 * filterScale
        let taps = Int(support.rounded(.up)) * 2 + 1
        self.taps = taps
        var first = [Int](repeating: 0, count: outputSize)
        var count = [Int](repeating: 0, count: outputSize)
        var weights = [Int32](repeating: 0, count: outputSize * taps)
        var row = [Double](repeating: 0, count: taps)
        let inverse = 1.0 / filterScale
        for i in 0..<outputSize {
            let centre = (Double(i) + 0.5) * scale
            let lo = max(0, Int(centre - support + 0.5))
            let hi = min(inputSize, Int(centre + support + 0.5))
            let n = max(0, hi - lo)
            var total = 0.0
            for k in 0..<n {
                let w = Self.bicubic((Double(k + lo) - centre + 0.5) * inverse)
                row[k] = w
                total += w
            }
            for k in 0..<n {
                let w = total != 0 ? row[k] / total : row[k]
                let scaled = w * Double(1 << Self.precisionBits)
                weights[i * taps + k] = Int32(w < 0 ? -0.5 + scaled : 0.5 + scaled)
            }
            first[i] = lo
            count[i] = max(0, min(lo + n, self.realSize) - lo)
        }
        self.first = first
        self.count = count
        self.weights = weights
    }

    /// Largest `count` over the output pixels: the rows a sliding window must hold.
    var widestWindow: Int { count.max() ?? 0 }

    /// Keys's cubic convolution kernel with a = −0.5 (Pillow's BICUBIC), evaluated in the same order of
    /// operations as Pillow so the Double weights agree to the last bit.
    static func bicubic(_ value: Double) -> Double {
        let a = -0.5
        let x = value < 0 ? -value : value
        if x < 1 { return ((a + 2) * x - (a + 3)) * x * x + 1 }
        if x < 2 { return (((x - 5) * x + 8) * x - 4) * a }
        return 0
    }
}
