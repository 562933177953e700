/// Maps `items` concurrently with at most `limit` child tasks alive at once, keeping input order.
///
/// Used so per-line work (crop, tensor, run) never exists for more lines at once than the inference
/// limiter lets run: memory stays proportional to `limit`, not to the number of lines.
func boundedMap<T: Sendable, R: Sendable>(_ items: [T], limit: Int,
                                         _ transform: @escaping @Sendable (T) async throws -> R) async throws -> [R] {
    guard !items.isEmpty else { return [] }
    return try await withThrowingTaskGroup(of: (Int, R).self) { group in
        var results = [R?](repeating: nil, count: items.count)
        var next = 0
        for _ in 0..<min(max(1, limit), items.count) {
            let i = next, item = items[i]
            group.addTask { (i, try await transform(item)) }
            next += 1
        }
        while let (i, r) = try await group.next() {
            results[i] = r
            if next < items.count {
                let j = next, item = items[j]
                group.addTask { (j, try await transform(item)) }
                next += 1
            }
        }
        return results.compactMap { $0 }
    }
}
