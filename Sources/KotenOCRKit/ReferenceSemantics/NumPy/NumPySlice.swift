/// NumPy's basic slicing, as NDL's references cut line crops (`page[y:y+h, x:x+w]`;
/// docs/reference-pipelines.md §1.5, §3.8; parity README §3.5 `box_above_top_edge`). The `RGBImage` crop built
/// on it, `RGBImage.numpySlice`, is in Resample/NumPySlice+RGBImage.swift.
enum NumPySlice {
    /// Python's slice bounds for a step of 1 on an axis of `size` elements: a negative index counts from the
    /// end, then both clamp to [0, size]. A stop at or before the start means an empty slice.
    static func bounds(start: Int, stop: Int, size: Int) -> (Int, Int) {
        func resolve(_ i: Int) -> Int { min(max(i < 0 ? i + size : i, 0), size) }
        return (resolve(start), resolve(stop))
    }
}
