/// `OpenCVBilinear` (ReferenceSemantics/OpenCV, which works on raw pixel buffers) on `RGBImage`s: the NDL
/// PARSeq line input, and PP-OCR's classifier and recogniser inputs (`bilinearResize`).
extension OpenCVBilinear {
    /// `image` resized to exactly `width`×`height` (`cv2.resize`, INTER_LINEAR). An empty source gives a black
    /// image; the same size gives `image` itself.
    package static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        let w = max(0, width), h = max(0, height)
        return RGBImage(uncheckedWidth: w, height: h, pixels: resize(pixels: image.pixels, sourceWidth: image.width,
                                                                   sourceHeight: image.height, width: w, height: h))
    }
}
