extension RGBImage {
    /// `page[y : y+height, x : x+width]` with NumPy's slicing rules, as NDL's references cut line crops
    /// (reference-pipelines.md §1.5, §3 pitfall 8; parity README §3.5 `box_above_top_edge`):
    /// a negative start or stop counts from the end (then clamps at 0), both clamp at the image size,
    /// and a stop at or before the start gives an empty crop. The result keeps NumPy's shape, so an
    /// empty crop can be 0 rows by `width` columns (it holds no pixels).
    public func numpySlice(x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        let (x0, x1) = Self.numpyBounds(start: x, stop: x + w, size: width)
        let (y0, y1) = Self.numpyBounds(start: y, stop: y + h, size: height)
        let cw = max(0, x1 - x0), ch = max(0, y1 - y0)
        guard cw > 0, ch > 0 else { return RGBImage(width: cw, height: ch) }
        return cropped(x: x0, y: y0, width: cw, height: ch)
    }

    /// Python's slice bounds for a step of 1: negative indices count from the end, then clamp to [0, size].
    static func numpyBounds(start: Int, stop: Int, size: Int) -> (Int, Int) {
        func resolve(_ i: Int) -> Int { min(max(i < 0 ? i + size : i, 0), size) }
        return (resolve(start), resolve(stop))
    }
}
