/// Channel order of a model's image input.
public enum ChannelOrder: Sendable { case rgb, bgr }

/// Per-channel normalisation of 8-bit values to float32, as a lookup table (256 values per channel, in
/// R, G, B order). A table gives exactly the tensor the reference computes (parity README §3.6).
public struct PixelNormalisation: Sendable {
    let tables: [[Float]]

    /// value = (x / 255 − mean[c]) / std[c], computed in Double and cast to Float (ImageNet-style).
    public static func meanStd(mean: [Double], std: [Double]) -> PixelNormalisation {
        PixelNormalisation(tables: (0..<3).map { c in
            (0..<256).map { Float((Double($0) / 255 - mean[c]) / std[c]) }
        })
    }

    /// value = (x − mean[c]) / std[c] on 0–255 values (RTMDet).
    public static func rawMeanStd(mean: [Double], std: [Double]) -> PixelNormalisation {
        PixelNormalisation(tables: (0..<3).map { c in (0..<256).map { Float((Double($0) - mean[c]) / std[c]) } })
    }

    /// value = x / 127.5 − 1 (NDL PARSeq, PP-OCR recogniser and classifier: (x/255 − 0.5)/0.5).
    public static let symmetric = PixelNormalisation(tables: Array(repeating: (0..<256).map { Float(Double($0) / 127.5 - 1) }, count: 3))

    /// value = (x / 255 − 0.5) × 2 (koten PARSeq), computed in Double, cast to Float.
    public static let symmetricKoten = PixelNormalisation(tables: Array(repeating: (0..<256).map { Float((Double($0) / 255 - 0.5) * 2) }, count: 3))
}

/// Packs an image into a float32 NCHW tensor [1, 3, height, tensorWidth]: channel planes in `order`,
/// each value through `normalisation`; columns from `image.width` to `tensorWidth` (right padding) are
/// `padValue`. The image's height must equal the tensor's.
public func packImageTensor(_ image: RGBImage, order: ChannelOrder, normalisation: PixelNormalisation,
                            tensorWidth: Int? = nil, padValue: Float = 0) -> Tensor {
    let w = image.width, h = image.height, tw = max(tensorWidth ?? w, w)
    var data = [Float](repeating: padValue, count: 3 * h * tw)
    let source: [Int] = order == .rgb ? [0, 1, 2] : [2, 1, 0]
    image.pixels.withUnsafeBufferPointer { src in
        data.withUnsafeMutableBufferPointer { dst in
            for plane in 0..<3 {
                let c = source[plane]
                let table = normalisation.tables[c]
                table.withUnsafeBufferPointer { lut in
                    for y in 0..<h {
                        let rowOut = (plane * h + y) * tw, rowIn = y * w * 3
                        for x in 0..<w { dst[rowOut + x] = lut[Int(src[rowIn + x * 3 + c])] }
                    }
                }
            }
        }
    }
    return Tensor(shape: [1, 3, h, tw], floats: data)
}
