import Foundation

/// Small accessors over `JSONSerialization` values for reading fixtures.
enum JSONAccess {
    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "fixture value missing or of the wrong type: \(what)" }
    }

    static func dict(_ value: Any?, _ what: String = "object") throws -> [String: Any] {
        guard let d = value as? [String: Any] else { throw Missing(what: what) }
        return d
    }

    static func array(_ value: Any?, _ what: String = "array") throws -> [Any] {
        guard let a = value as? [Any] else { throw Missing(what: what) }
        return a
    }

    static func int(_ value: Any?, _ what: String = "int") throws -> Int {
        guard let n = value as? NSNumber else { throw Missing(what: what) }
        return n.intValue
    }

    static func double(_ value: Any?, _ what: String = "number") throws -> Double {
        guard let n = value as? NSNumber else { throw Missing(what: what) }
        return n.doubleValue
    }

    static func string(_ value: Any?, _ what: String = "string") throws -> String {
        guard let s = value as? String else { throw Missing(what: what) }
        return s
    }

    /// All numbers of a nested array, depth first.
    static func flatNumbers(_ value: Any?) throws -> [NSNumber] {
        if let n = value as? NSNumber { return [n] }
        guard let a = value as? [Any] else { throw Missing(what: "nested number array") }
        return try a.flatMap { try flatNumbers($0) }
    }

    static func box(_ value: Any?) throws -> [Int] {
        try array(value, "box").map { try int($0, "box coordinate") }
    }
}
