/// Channel order of a model's image input.
package enum ChannelOrder: Sendable { case rgb, bgr }

/// Per-channel normalisation of 8-bit values to float32, as a lookup table (256 values per channel, in
/// R, G, B order). A table gives exactly the tensor the reference computes (parity README §3.6).
package struct PixelNormalisation: Sendable {
    let tables: [[Float]]

    /// value = (x / 255 − mean[c]) / std[c], computed in Double and cast to Float (ImageNet-style).
    /// Pass float32-rounded constants where the reference holds them as float32 (see `deim`).
    public static func meanStd(mean: [Double], std: [Double]) -> PixelNormalisation {
        PixelNormalisation(tables: (0..<3).map { c in
            (0..<256).map { Float((Double($0) / 255 - mean[c]) / std[c]) }
        })
    }

    /// value = (x − mean[c]) / std[c] on 0–255 values, computed in Float (float32), as RTMDet's reference
    /// does (computing in Double and rounding once differs in the last bit for 367 of 768 entries).
    public static func rawMeanStd(mean: [Double], std: [Double]) -> PixelNormalisation {
        PixelNormalisation(tables: (0..<3).map { c in
            let m = Float(mean[c]), s = Float(std[c])
            return (0..<256).map { (Float($0) - m) / s }
        })
    }

    /// DEIM (NDLOCR-Lite), RGB: (x / 255 − mean) / std in Double with the float32 constants
    /// mean [0.485, 0.456, 0.406], std [0.229, 0.224, 0.225], cast to Float. Bit-exact with the tensor
    /// of the reference (parity README §3.6, `ndl/preprocess/deim` LUT); docs/reference-pipelines.md §1.2.
    public static let deim = meanStd(mean: float32([0.485, 0.456, 0.406]), std: float32([0.229, 0.224, 0.225]))

    /// RTMDet (NDL Koten OCR-Lite), constants in R, G, B order (the tensor is BGR):
    /// (x − mean) / std in float32, mean [123.675, 116.28, 103.53], std [58.395, 57.12, 57.375].
    /// Bit-exact with `koten/preprocess/rtmdet` (parity README §3.6); docs/reference-pipelines.md §2.1.
    public static let rtmdet = rawMeanStd(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375])

    /// value = x / 127.5 − 1 in float32 (NDL PARSeq, bit-exact with `ndl/preprocess/parseq`; also used for
    /// the PP-OCR recogniser and classifier: (x/255 − 0.5)/0.5).
    public static let symmetric = PixelNormalisation(tables: Array(repeating: (0..<256).map { Float($0) / 127.5 - 1 }, count: 3))

    /// value = (x / 255 − 0.5) × 2 (koten PARSeq), computed in Double, cast to Float (bit-exact with
    /// `koten/preprocess/parseq`).
    public static let symmetricKoten = PixelNormalisation(tables: Array(repeating: (0..<256).map { Float((Double($0) / 255 - 0.5) * 2) }, count: 3))

    /// Values as the nearest float32, widened back to Double.
    private static func float32(_ values: [Double]) -> [Double] { values.map { Double(Float($0)) } }
}

/// Packs an image into a float32 NCHW tensor [1, 3, height, tensorWidth]: channel planes in `order`,
/// each value through `normalisation`; columns from `image.width` to `tensorWidth` (right padding) are
/// `padValue`. The image's height must equal the tensor's.
package func packImageTensor(_ image: RGBImage, order: ChannelOrder, normalisation: PixelNormalisation,
                            tensorWidth: Int? = nil, padValue: Float = 0) -> Tensor {
    packImageTensor([image], order: order, normalisation: normalisation, tensorWidth: tensorWidth, padValue: padValue)
}

/// Packs images of one height into a batch, float32 NCHW [N, 3, height, tensorWidth]: image k is item k, exactly as
/// `packImageTensor(_:order:normalisation:tensorWidth:padValue:)` packs it alone, right-padded with `padValue` to
/// `tensorWidth` (at least the widest image). Every image's height must equal the first's.
func packImageTensor(_ images: [RGBImage], order: ChannelOrder, normalisation: PixelNormalisation,
                     tensorWidth: Int? = nil, padValue: Float = 0) -> Tensor {
    let h = images.first?.height ?? 0, tw = max(tensorWidth ?? 0, images.map(\.width).max() ?? 0)
    var data = [Float](repeating: padValue, count: images.count * 3 * h * tw)
    let source: [Int] = order == .rgb ? [0, 1, 2] : [2, 1, 0]
    data.withUnsafeMutableBufferPointer { dst in
        for (item, image) in images.enumerated() where image.height == h {
            let w = image.width
            image.pixels.withUnsafeBufferPointer { src in
                for plane in 0..<3 {
                    let c = source[plane]
                    normalisation.tables[c].withUnsafeBufferPointer { lut in
                        for y in 0..<h {
                            let rowOut = ((item * 3 + plane) * h + y) * tw, rowIn = y * w * 3
                            for x in 0..<w { dst[rowOut + x] = lut[Int(src[rowIn + x * 3 + c])] }
                        }
                    }
                }
            }
        }
    }
    return Tensor(shape: [images.count, 3, h, tw], floats: data)
}
