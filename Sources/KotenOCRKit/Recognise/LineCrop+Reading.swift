extension LineCrop {
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
