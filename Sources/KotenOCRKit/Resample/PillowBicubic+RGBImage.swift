/// `PillowBicubic` (ReferenceSemantics/Pillow, which works on raw pixel buffers) on `RGBImage`s: the detector
/// inputs of DEIM and RTMDet and the koten PARSeq line input.
extension PillowBicubic {
    /// Resizes `image` to `width`×`height`, RGB u8 (an image of another size than `sourceWidth`×`sourceHeight`
    /// gets a resampler of its own). An empty source or canvas gives a black image, as Pillow does.
    package func resize(_ image: RGBImage) -> RGBImage {
        var log = ResampleBufferLog()
        return resize(image, log: &log)
    }

    /// `image` resized to `width`×`height` (Pillow `Image.resize((width, height))`, default filter).
    package static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        PillowBicubic(sourceWidth: image.width, sourceHeight: image.height, width: width, height: height).resize(image)
    }

    /// What resizing `image`, pasted at the top-left of a black `squareSide`×`squareSide` square, to
    /// `size`×`size` gives — without the square ever existing. DEIM: `size` 800, RTMDet: 1280, with
    /// `squareSide` = max(width, height) (docs/reference-pipelines.md §1.2, §2.1).
    package static func resizePadded(_ image: RGBImage, squareSide: Int, to size: Int) -> RGBImage {
        PillowBicubic(sourceWidth: image.width, sourceHeight: image.height, canvasWidth: squareSide,
                      canvasHeight: squareSide, width: size, height: size).resize(image)
    }

    /// The resize of `image`, recording every buffer it allocates in `log` (element counts).
    func resize(_ image: RGBImage, log: inout ResampleBufferLog) -> RGBImage {
        guard image.width == sourceWidth, image.height == sourceHeight else {
            return PillowBicubic(sourceWidth: image.width, sourceHeight: image.height, canvasWidth: canvasWidth,
                                 canvasHeight: canvasHeight, width: width, height: height).resize(image, log: &log)
        }
        return RGBImage(uncheckedWidth: width, height: height, pixels: resize(pixels: image.pixels, log: &log))
    }
}
