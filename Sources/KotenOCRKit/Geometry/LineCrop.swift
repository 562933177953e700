/// The image region a line recogniser reads.
package enum LineCrop {
    /// The part of `box` inside a `imageWidth × imageHeight` image (possibly empty: x2 == x1 or
    /// y2 == y1). For boxes starting inside the image this is NumPy's `img[y1:y2, x1:x2]`, as the
    /// reference crops. Deliberate deviation: a negative start is clamped to 0, where NumPy counts
    /// it from the far edge and returns an empty crop (koten `box_above_top_edge`, whose lines
    /// the reference therefore never reads).
    package static func clamped(_ box: PixelBox, imageWidth: Int, imageHeight: Int) -> PixelBox {
        func clamp(_ v: Int, _ hi: Int) -> Int { min(max(v, 0), hi) }
        let x1 = clamp(box.x1, imageWidth), y1 = clamp(box.y1, imageHeight)
        return PixelBox(x1: x1, y1: y1, x2: max(x1, clamp(box.x2, imageWidth)), y2: max(y1, clamp(box.y2, imageHeight)))
    }

    static func isEmpty(_ crop: PixelBox) -> Bool { crop.width <= 0 || crop.height <= 0 }
}
