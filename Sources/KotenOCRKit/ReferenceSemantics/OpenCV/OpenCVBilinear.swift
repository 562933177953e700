import CKernels

/// OpenCV 4.11's `cv2.resize(src, (width, height), interpolation=INTER_LINEAR)` for 8-bit RGB,
/// reproduced bit for bit (NDLOCR-Lite's PARSeq line inputs, docs/reference-pipelines.md §1.5; also the
/// PP-OCR recogniser and classifier). No antialiasing; the aspect ratio is not kept.
///
/// Arithmetic, as OpenCV performs it on x86-64 (SSE2) and ARM (NEON) builds:
/// - horizontal pass to Int32: p[s] × w0 + p[s+1] × w1 with 11-bit weights (`OpenCVLinearAxis`);
/// - vertical pass from two such rows with 11-bit weights, in OpenCV's 128-bit vector form for the
///   leading 16-element blocks of each row (each sum shifted right by 4, multiplied keeping the high
///   16 bits, added, then rounded by 2 bits), and in its scalar form ((a·b0 + c·b1 + 2^21) >> 22) for the
///   few trailing elements a vector does not cover;
/// - an exact 2× reduction on both axes is OpenCV's INTER_AREA fast path: (a + b + c + d + 2) >> 2;
/// - same size: a copy.
/// Golden: `ndl/preprocess/parseq` (parity README §3.6); measured difference in docs/preprocessing.md.
package enum OpenCVBilinear {
    /// `source`, the pixels of a `sourceWidth`×`sourceHeight` RGB u8 image (rows top to bottom, channels
    /// interleaved; `source.count == sourceWidth * sourceHeight * 3`), resized to exactly `width`×`height`:
    /// that image's pixels. An empty source gives black pixels. (`RGBImage` callers use the adapter in
    /// Resample/OpenCVBilinear+RGBImage.swift.)
    static func resize(pixels source: [UInt8], sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> [UInt8] {
        let w = max(0, width), h = max(0, height)
        guard sourceWidth > 0, sourceHeight > 0, w > 0, h > 0, source.count == sourceWidth * sourceHeight * 3 else {
            return [UInt8](repeating: 0, count: w * h * 3)
        }
        if sourceWidth == w && sourceHeight == h { return source }
        if sourceWidth == 2 * w && sourceHeight == 2 * h { return halve(source, sourceWidth: sourceWidth, sourceHeight: sourceHeight) }
        let xAxis = OpenCVLinearAxis(inputSize: sourceWidth, outputSize: w, clampPositions: true)
        let yAxis = OpenCVLinearAxis(inputSize: sourceHeight, outputSize: h, clampPositions: false)
        let rowLength = w * 3, lastRow = sourceHeight - 1
        var output = [UInt8](repeating: 0, count: rowLength * h)
        var upper = [Int32](repeating: 0, count: rowLength), lower = upper
        var upperRow = -1, lowerRow = -1
        source.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let r0 = min(max(yAxis.start[y], 0), lastRow), r1 = min(max(yAxis.start[y] + 1, 0), lastRow)
                    if upperRow != r0 {
                        if lowerRow == r0 { swap(&upper, &lower); swap(&upperRow, &lowerRow) } else {
                            horizontal(source, row: r0, width: sourceWidth, axis: xAxis, into: &upper)
                            upperRow = r0
                        }
                    }
                    if lowerRow != r1 {
                        horizontal(source, row: r1, width: sourceWidth, axis: xAxis, into: &lower)
                        lowerRow = r1
                    }
                    vertical(upper, lower, b0: yAxis.weights[2 * y], b1: yAxis.weights[2 * y + 1],
                             into: out, at: y * rowLength)
                }
            }
        }
        return output
    }

    /// Horizontal pass of one source row into Int32 sums (exact in both OpenCV forms); the loop is C
    /// (`koten_bilinear_horizontal`, Sources/CKernels: a debug build of this loop in Swift was a tenth of a page's CPU).
    private static func horizontal(_ source: UnsafeBufferPointer<UInt8>, row: Int, width sourceWidth: Int,
                                   axis: OpenCVLinearAxis, into sums: inout [Int32]) {
        guard let base = source.baseAddress else { return }
        let outputWidth = axis.start.count
        sums.withUnsafeMutableBufferPointer { d in
            guard let out = d.baseAddress, d.count >= outputWidth * 3 else { return }
            koten_bilinear_horizontal(base + row * sourceWidth * 3, axis.start, axis.weights, outputWidth, axis.end, out)
        }
    }

    /// Vertical pass of two summed rows into one output row: OpenCV's vector form on whole 16-element
    /// blocks, then on 8-element blocks while more than 8 elements remain, then its scalar form (in C,
    /// `koten_bilinear_vertical`).
    private static func vertical(_ s0: [Int32], _ s1: [Int32], b0: Int16, b1: Int16,
                                 into out: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let n = s0.count
        var vectorEnd = 0
        while vectorEnd <= n - 16 { vectorEnd += 16 }
        while vectorEnd < n - 8 { vectorEnd += 8 }
        guard let target = out.baseAddress, s1.count == n, offset + n <= out.count else { return }
        koten_bilinear_vertical(s0, s1, n, vectorEnd, b0, b1, target + offset)
    }

    /// OpenCV's INTER_AREA fast path for an exact 2× reduction: rounded mean of each 2×2 block.
    private static func halve(_ source: [UInt8], sourceWidth: Int, sourceHeight: Int) -> [UInt8] {
        let w = sourceWidth / 2, h = sourceHeight / 2, stride = sourceWidth * 3
        var output = [UInt8](repeating: 0, count: w * h * 3)
        source.withUnsafeBufferPointer { s in
            output.withUnsafeMutableBufferPointer { d in
                for y in 0..<h {
                    let top = 2 * y * stride
                    for i in 0..<(w * 3) {
                        let p = top + (i / 3) * 6 + i % 3
                        let sum = Int(s[p]) + Int(s[p + 3]) + Int(s[p + stride]) + Int(s[p + stride + 3])
                        d[y * w * 3 + i] = UInt8((sum + 2) >> 2)
                    }
                }
            }
        }
        return output
    }

}
