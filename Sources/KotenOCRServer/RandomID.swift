/// Random identifiers: 128 bits from the system's random source (`SystemRandomNumberGenerator`), as 32
/// lowercase hex digits. Job ids and request folders; never derived from a request.
enum RandomID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    /// Whether `text` has the shape of an id (32 lowercase hex digits): checked before an id is looked up.
    static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
