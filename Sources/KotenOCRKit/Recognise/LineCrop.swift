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
}

/// Runs `read` over `items` with at most `limit` calls in flight; results keep item order.
func boundedMap<T: Sendable, R: Sendable>(
    _ items: [T], limit: Int, _ read: @escaping @Sendable (T) async throws -> R
) async throws -> [R] {
    var results = [R?](repeating: nil, count: items.count)
    try await withThrowingTaskGroup(of: (Int, R).self) { group in
        var next = 0
        func submit() {
            let i = next
            let item = items[i]
            group.addTask { (i, try await read(item)) }
            next += 1
        }
        while next < items.count && next < max(1, limit) { submit() }
        while let (i, r) = try await group.next() {
            results[i] = r
            if next < items.count { submit() }
        }
    }
    return results.compactMap { $0 }
}
