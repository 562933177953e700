extension RGBImage {
    /// `page[y : y+height, x : x+width]` with NumPy's slicing rules (`NumPySlice.bounds`), as NDL's references cut
    /// line crops: a negative start or stop counts from the end (then clamps at 0), both clamp at the image size,
    /// and a stop at or before the start gives an empty crop. The result keeps NumPy's shape, so an empty crop
    /// can be 0 rows by `width` columns (it holds no pixels).
    package func numpySlice(x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        let (x0, x1) = NumPySlice.bounds(start: x, stop: x + w, size: width)
        let (y0, y1) = NumPySlice.bounds(start: y, stop: y + h, size: height)
        let cw = max(0, x1 - x0), ch = max(0, y1 - y0)
        guard cw > 0, ch > 0 else { return RGBImage(width: cw, height: ch) }
        return cropped(x: x0, y: y0, width: cw, height: ch)
    }
}
