/// The page image of NDL's padded-square detectors (DEIM 800×800, RTMDet 1280×1280): the page at the
/// top-left of a black S×S square (S = its longer side), resized with Pillow's bicubic filter — without the
/// square ever existing (`PillowBicubic.resizePadded`). Reference: docs/reference-pipelines.md §1.2, §2.1.
package enum PaddedSquarePage {
    /// Decodes `source` for a detector of input side `inputSide`. A page whose longer side is at most
    /// `reducedDecodeFactor` × `inputSide` is decoded at full resolution, exactly as the reference reads
    /// it (byte parity of the detector input). A larger page is decoded at reduced size where the format
    /// allows (JPEG shrink-on-load by 2, 4 or 8, keeping its longer side at least that limit), so a
    /// 10000×14000 scan never exists in memory at full size for detection; such pages are outside byte
    /// parity (their detector input differs from the reference's by the shrink-on-load filter).
    /// Returns the image and whether it is the full-resolution page (reused for line crops).
    /// Throws `ImageError` naming the file.
    public static func decode(_ source: ImageSource, inputSide: Int, reducedDecodeFactor: Int = 4) throws
        -> (image: RGBImage, fullResolution: Bool) {
        let side = max(source.width, source.height)
        let limit = max(1, reducedDecodeFactor) * inputSide
        guard side > limit else { return (try source.decode(), true) }
        func atLeast(_ v: Int) -> Int { max(1, (v * limit + side - 1) / side) }
        let image = try source.decode(atLeast: atLeast(source.width), atLeast(source.height))
        return (image, image.width == source.width && image.height == source.height)
    }

    /// The bytes `decode` and `resized` and the model's float32 input tensors hold at once for a detector of input
    /// side `inputSide`: the decoded page (twice when its EXIF orientation turns it: libvips' turned copy beside
    /// it), the N×N RGB image and the [1,3,N,N] float32 tensor. An estimate for the store's room, not a measurement.
    public static func bufferBytes(_ source: ImageSource, inputSide: Int, reducedDecodeFactor: Int = 4) -> Int {
        let side = max(source.width, source.height), limit = max(1, reducedDecodeFactor) * inputSide
        let scale = side > limit ? Double(limit) / Double(side) : 1
        let decoded = Int(Double(source.width) * scale * Double(source.height) * scale) * 3
        let turned = source.orientation > 1 ? 2 : 1
        return decoded * turned + inputSide * inputSide * 3 * (1 + 4)
    }

    /// `image` on a black square of its longer side, resized to `inputSide`×`inputSide` (Pillow bicubic,
    /// 8-bit RGB). Memory: the output and the resampler's row window, never the square.
    public static func resized(_ image: RGBImage, inputSide: Int) -> RGBImage {
        PillowBicubic.resizePadded(image, squareSide: max(image.width, image.height), to: inputSide)
    }
}
