/// Pillow 12's `Image.resize` with its default filter for RGB (BICUBIC, a = −0.5, antialiased),
/// reproduced bit for bit: fixed-point weights (`PillowAxis`), a horizontal pass rounded and clipped to
/// 8 bits, then a vertical pass rounded and clipped to 8 bits (Pillow's order; the other order differs).
///
/// A resampler is built once per (source size, canvas size, output size) and holds both coefficient
/// tables; `resize` then runs over contiguous memory without per-pixel allocation. It works on raw pixel
/// buffers; the `RGBImage` adapters (`resize(_:)`, `resize(_:width:height:)`, `resizePadded`) are in Resample/.
///
/// Virtual canvas: the source sits at the top-left of a `canvasWidth`×`canvasHeight` black canvas
/// (DEIM and RTMDet pad the page to an S×S square, docs/reference-pipelines.md §1.2, §2.1). The canvas is
/// never allocated: black pixels contribute nothing to the integer sums, so only real pixels are read
/// while the weights stay those of the whole canvas. Memory: the output, one accumulator row and a
/// sliding window of horizontally resampled rows (`window` rows of the output width).
///
/// Reference: parity README §3.6 (goldens `ndl/preprocess/deim`, `koten/preprocess/rtmdet`,
/// `koten/preprocess/parseq`); docs/preprocessing.md.
package struct PillowBicubic: Sendable {
    /// Size of the real image, pixels.
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// Size of the virtual black canvas the image sits on (top-left), pixels.
    public let canvasWidth: Int
    public let canvasHeight: Int
    /// Output size, pixels.
    public let width: Int
    public let height: Int
    let horizontal: PillowAxis
    let vertical: PillowAxis

    /// A resampler from a `sourceWidth`×`sourceHeight` image placed top-left on a black
    /// `canvasWidth`×`canvasHeight` canvas (default: the image itself) to `width`×`height`.
    /// Negative sizes count as 0; a canvas smaller than the source crops it.
    public init(sourceWidth: Int, sourceHeight: Int, canvasWidth: Int? = nil, canvasHeight: Int? = nil,
                width: Int, height: Int) {
        self.sourceWidth = max(0, sourceWidth)
        self.sourceHeight = max(0, sourceHeight)
        self.canvasWidth = max(0, canvasWidth ?? sourceWidth)
        self.canvasHeight = max(0, canvasHeight ?? sourceHeight)
        self.width = max(0, width)
        self.height = max(0, height)
        horizontal = PillowAxis(inputSize: self.canvasWidth, realSize: self.sourceWidth, outputSize: self.width)
        vertical = PillowAxis(inputSize: self.canvasHeight, realSize: self.sourceHeight, outputSize: self.height)
    }

    /// Resizes `source`, the pixels of a `sourceWidth`×`sourceHeight` RGB u8 image (rows top to bottom,
    /// channels interleaved; `source.count == sourceWidth * sourceHeight * 3`), to the `width`×`height` pixels
    /// of the output, recording every buffer it allocates in `log` (element counts), so tests can prove that
    /// no canvas-sized buffer exists. An empty source or canvas gives black pixels, as Pillow does.
    /// (`RGBImage` callers use the adapter in Resample/PillowBicubic+RGBImage.swift.)
    func resize(pixels source: [UInt8], log: inout ResampleBufferLog) -> [UInt8] {
        let rowLength = width * 3
        var output = [UInt8](repeating: 0, count: rowLength * height)
        log.allocated(output.count)
        guard rowLength > 0, height > 0, sourceWidth > 0, sourceHeight > 0, canvasWidth > 0, canvasHeight > 0,
              source.count == sourceWidth * sourceHeight * 3 else {
            return output
        }
        let window = max(1, vertical.widestWindow)
        var rows = [UInt8](repeating: 0, count: window * rowLength)   // horizontally resampled rows, ring
        var sums = [Int32](repeating: 0, count: rowLength)
        log.allocated(rows.count)
        log.allocated(sums.count)
        source.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { ring in
                sums.withUnsafeMutableBufferPointer { acc in
                    output.withUnsafeMutableBufferPointer { out in
                        var nextRow = 0  // next source row to resample horizontally
                        for y in 0..<height {
                            let top = vertical.first[y], n = vertical.count[y]
                            if nextRow < top { nextRow = top }
                            while nextRow < top + n {
                                let slot = (nextRow % window) * rowLength
                                horizontalPass(source, row: nextRow, into: ring, at: slot)
                                nextRow += 1
                            }
                            verticalPass(ring, window: window, row: y, sums: acc, into: out, at: y * rowLength)
                        }
                    }
                }
            }
        }
        return output
    }

    /// One source row resampled to `width` pixels, rounded and clipped to u8 (Pillow's first pass).
    /// (Wrapping arithmetic on indices keeps the loops free of overflow checks.)
    private func horizontalPass(_ source: UnsafeBufferPointer<UInt8>, row: Int,
                                into ring: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let rowLength = sourceWidth &* 3, start = row &* rowLength, taps = horizontal.taps
        let pixels = UnsafeBufferPointer(rebasing: source[start..<(start &+ rowLength)])
        let out = UnsafeMutableBufferPointer(rebasing: ring[offset..<(offset &+ width &* 3)])
        horizontal.weights.withUnsafeBufferPointer { weights in
            horizontal.first.withUnsafeBufferPointer { first in
                horizontal.count.withUnsafeBufferPointer { count in
                    for x in 0..<width {
                        var r = PillowAxis.rounding, g = PillowAxis.rounding, b = PillowAxis.rounding
                        var p = first[x] &* 3, w = x &* taps
                        for _ in 0..<count[x] {
                            let weight = weights[w]
                            r &+= Int32(pixels[p]) &* weight
                            g &+= Int32(pixels[p &+ 1]) &* weight
                            b &+= Int32(pixels[p &+ 2]) &* weight
                            p &+= 3
                            w &+= 1
                        }
                        let o = x &* 3
                        out[o] = clip8(r)
                        out[o &+ 1] = clip8(g)
                        out[o &+ 2] = clip8(b)
                    }
                }
            }
        }
    }

    /// Output row `y` from the window rows it reads, rounded and clipped to u8 (Pillow's second pass).
    private func verticalPass(_ ring: UnsafeMutableBufferPointer<UInt8>, window: Int, row y: Int,
                              sums: UnsafeMutableBufferPointer<Int32>,
                              into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let n = sums.count
        sums.update(repeating: PillowAxis.rounding)
        let top = vertical.first[y], w0 = y * vertical.taps
        for k in 0..<vertical.count[y] {
            let weight = vertical.weights[w0 + k]
            let slot = ((top + k) % window) * n
            let source = UnsafeBufferPointer(rebasing: ring[slot..<(slot &+ n)])
            for i in 0..<n { sums[i] &+= Int32(source[i]) &* weight }
        }
        let out = UnsafeMutableBufferPointer(rebasing: output[offset..<(offset &+ n)])
        for i in 0..<n { out[i] = clip8(sums[i]) }
    }

    @inline(__always)
    private func clip8(_ sum: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(sum >> Int32(PillowAxis.precisionBits), 0), 255))
    }
}

/// Element counts of the buffers a resize allocated (tests use it to show that no padded canvas exists).
struct ResampleBufferLog: Sendable {
    private(set) var largest = 0
    private(set) var total = 0

    mutating func allocated(_ elements: Int) {
        largest = max(largest, elements)
        total += elements
    }
}
