import Foundation

/// Arithmetic with the exact semantics of CPython/NumPy where they differ from Swift's.
enum PythonArithmetic {
    /// `a // b` for floats as CPython and NumPy compute it (`divmod` based, not `floor(a / b)`).
    /// Division by zero gives `a / b` (±inf or NaN), as NumPy does.
    static func floorDivide(_ a: Double, _ b: Double) -> Double {
        if b == 0 { return a / b }
        var mod = fmod(a, b)
        var div = (a - mod) / b
        if mod != 0 {
            if (b < 0) != (mod < 0) {
                mod += b
                div -= 1.0
            }
        }
        if div != 0 {
            var floorDiv = div.rounded(.down)
            if div - floorDiv > 0.5 { floorDiv += 1.0 }
            return floorDiv
        }
        return (a / b).sign == .minus ? -0.0 : 0.0
    }

    /// NumPy's float64 → int64 cast on x86-64: truncation toward zero; NaN and values out of
    /// range become `Int64.min` (the "integer indefinite" value of `cvttsd2si`).
    static func castToInt64(_ value: Double) -> Int64 {
        guard value.isFinite, value >= -9.223372036854775808e18, value < 9.223372036854775808e18 else {
            return Int64.min
        }
        return Int64(value.rounded(.towardZero))
    }

    /// `numpy.median` of a non-empty list: middle element, or the mean of the two middle ones.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let n = sorted.count
        if n == 0 { return .nan }
        if n % 2 == 1 { return sorted[n / 2] }
        return (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

extension PythonArithmetic {
    /// Integer `a // b` (floor division), for b > 0.
    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
