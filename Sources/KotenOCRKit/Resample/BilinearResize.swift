/// Resizes to exactly `width`×`height` with OpenCV's INTER_LINEAR (half-pixel centres, no
/// antialiasing, aspect ratio not kept), bit-exact with `cv2.resize` (see `OpenCVBilinear`).
/// Used by the PP-OCR recogniser and classifier, whose reference also resizes with `cv2.resize`.
package func bilinearResize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
    OpenCVBilinear.resize(image, width: width, height: height)
}
