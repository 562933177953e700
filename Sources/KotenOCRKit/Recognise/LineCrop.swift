/// The image region a line recogniser reads.
public enum LineCrop {
    /// The part of `box` inside a `imageWidth × imageHeight` image (possibly empty: x2 == x1 or
    /// y2 == y1). For boxes starting inside the image this is NumPy's `img[y1:y2, x1:x2]`, as the
    /// reference crops. Deliberate deviation: a negative start is clamped to 0, where NumPy counts
    /// it from the far edge and returns an empty crop (koten `box_above_top_edge`, whose lines
    /// the reference therefore never reads).
    public static func clamped(_ box: PixelBox, imageWidth: Int, imageHeight: Int) -> PixelBox {
        func clamp(_ v: Int, _ hi: Int) -> Int { min(max(v, 0), hi) }
        let x1 = clamp(box.x1, imageWidth), y1 = clamp(box.y1, imageHeight)
        return PixelBox(x1: x1, y1: y1, x2: max(x1, clamp(box.x2, imageWidth)), y2: max(y1, clamp(box.y2, imageHeight)))
    }

    static func isEmpty(_ crop: PixelBox) -> Bool { crop.width <= 0 || crop.height <= 0 }

    /// One reading per crop, in order: an empty crop reads as `.empty` without a call, the others are handed to
    /// `readAll` at once, in order (it returns one reading per crop it is given).
    static func readNonEmpty<Reading: LineReading>(_ crops: [PixelBox],
                                                   _ readAll: ([PixelBox]) async throws -> [Reading]) async throws -> [Reading] {
        let kept = crops.indices.filter { !isEmpty(crops[$0]) }
        guard !kept.isEmpty else { return crops.map { _ in .empty } }
        let readings = try await readAll(kept.map { crops[$0] })
        var results = crops.map { _ in Reading.empty }
        for (i, r) in zip(kept, readings) { results[i] = r }
        return results
    }
}
