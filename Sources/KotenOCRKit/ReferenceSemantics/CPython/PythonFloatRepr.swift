/// `repr(float)` of CPython: the shortest digits that round-trip, in fixed notation when the
/// decimal exponent is in (-4, 16], else `d.ddde±XX`; integral values get `.0`.
enum PythonFloatRepr {
    static func string(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let (digits, pointPosition) = shortestDigits(abs(value))
        let sign = value < 0 ? "-" : ""
        if pointPosition > -4 && pointPosition <= 16 {
            if pointPosition <= 0 {
                return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
            }
            if pointPosition >= digits.count {
                return sign + digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
            }
            let cut = digits.index(digits.startIndex, offsetBy: pointPosition)
            return sign + digits[..<cut] + "." + digits[cut...]
        }
        let exponent = pointPosition - 1
        let mantissa = digits.count > 1 ? String(digits.prefix(1)) + "." + digits.dropFirst() : digits
        let e = abs(exponent) < 10 ? "0\(abs(exponent))" : "\(abs(exponent))"
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + e
    }

    /// Shortest round-trip significant digits of a positive finite value and the decimal point
    /// position: value = 0.DIGITS × 10^pointPosition. Taken from Swift's own shortest printing.
    private static func shortestDigits(_ value: Double) -> (String, Int) {
        let text = value.description  // e.g. "0.812", "1e-05", "123.0", "1.5e+20"
        let parts = text.split(separator: "e")
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0]
        let integerPart = mantissa.split(separator: ".", omittingEmptySubsequences: false)[0]
        var digits = mantissa.filter { $0 != "." }
        var point = integerPart.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1 && digits.last == "0" { digits.removeLast() }
        return (String(digits), point)
    }
}
