/// Raw detector outputs whose sizes do not fit together.
package enum DetectorOutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `array` has `count` elements where `expected` were needed.
    case sizeMismatch(array: String, count: Int, expected: Int)
    /// `array` has `count` values, not a whole number of rows of `rowWidth`.
    case notWholeRows(array: String, count: Int, rowWidth: Int)

    public var description: String {
        switch self {
        case let .sizeMismatch(array, count, expected):
            return "detector output '\(array)' has \(count) values, expected \(expected)"
        case let .notWholeRows(array, count, rowWidth):
            return "detector output '\(array)' has \(count) values, not a multiple of \(rowWidth)"
        }
    }
}

/// Float32 → Int32 as NumPy's `astype(np.int32)`: truncation toward zero. Values outside the
/// Int32 range (undefined in NumPy) are clamped; NaN becomes 0.
func truncateToInt32(_ value: Float) -> Int {
    guard !value.isNaN else { return 0 }
    let t = value.rounded(.towardZero)
    if t >= 2_147_483_648 { return Int(Int32.max) }  // 2^31, exactly representable in Float32
    if t <= -2_147_483_648 { return Int(Int32.min) }
    return Int(t)
}
