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

    /// `image` on a black square of its longer side, resized to `inputSide`×`inputSide` (Pillow bicubic,
    /// 8-bit RGB). Memory: the output and the resampler's row window, never the square.
    public static func resized(_ image: RGBImage, inputSide: Int) -> RGBImage {
        PillowBicubic.resizePadded(image, squareSide: max(image.width, image.height), to: inputSide)
    }
}
