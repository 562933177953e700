/// The recogniser input image of one text line, exactly as NDL's references make it (before the
/// channel flip and normalisation, which `packImageTensor` does).
package enum LineInput {
    /// NDLOCR-Lite PARSeq (24×256/384/768): NumPy crop `page[y:y+h, x:x+w]`, rotated 90°
    /// counter-clockwise when it is taller than wide, `cv2.resize` INTER_LINEAR to `width`×`height`.
    /// Nil for an empty crop (the reference returns "" without calling the model, parity README C2).
    /// Reference: docs/reference-pipelines.md §1.5; golden `ndl/preprocess/parseq`.
    public static func ndl(page: RGBImage, x: Int, y: Int, width w: Int, height h: Int,
                           inputWidth: Int, inputHeight: Int) -> RGBImage? {
        let crop = page.numpySlice(x: x, y: y, width: w, height: h)
        guard crop.width > 0, crop.height > 0 else { return nil }
        let upright = crop.height > crop.width ? crop.rotatedCounterClockwise() : crop
        return OpenCVBilinear.resize(upright, width: inputWidth, height: inputHeight)
    }

    /// NDL Koten OCR-Lite PARSeq (32×384): NumPy crop (a negative `y` counts from the bottom and
    /// usually empties the crop), Pillow ROTATE_90 (counter-clockwise) when taller than wide, Pillow
    /// bicubic resize to `inputWidth`×`inputHeight`. An empty crop gives a black image, as Pillow does.
    /// Reference: docs/reference-pipelines.md §2.2; golden `koten/preprocess/parseq`.
    public static func koten(page: RGBImage, x: Int, y: Int, width w: Int, height h: Int,
                             inputWidth: Int = 384, inputHeight: Int = 32) -> RGBImage {
        let crop = page.numpySlice(x: x, y: y, width: w, height: h)
        let upright = crop.height > crop.width ? crop.rotatedCounterClockwise() : crop
        return PillowBicubic.resize(upright, width: inputWidth, height: inputHeight)
    }
}
