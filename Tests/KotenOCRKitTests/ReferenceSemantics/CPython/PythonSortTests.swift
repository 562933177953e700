import Foundation
import Testing
@testable import KotenOCRKit

/// The CPython sort port against `sorted(key=cmp_to_key(...))` run by CPython 3.11 with a
/// non-transitive margin comparator (vectors: scripts/gen_python_sort_vectors.py).
@Suite struct PythonSortTests {
    @Test func matchesCPythonOnNonTransitiveComparator() throws {
        let url = Fixtures.parityRoot.deletingLastPathComponent().appendingPathComponent("python/python_sort_vectors.json")
        let root = try JSONAccess.dict(Fixtures.json(url))
        let cases = try JSONAccess.array(root["cases"])
        #expect(cases.count > 40)
        var largest = 0
        var naiveMismatches = 0
        for (n, value) in cases.enumerated() {
            let c = try JSONAccess.dict(value)
            let vertical = (c["vertical"] as? Bool) ?? false
            let margin = try JSONAccess.double(c["margin"])
            let points = try JSONAccess.array(c["points"]).map { p -> (Double, Double) in
                let xy = try JSONAccess.array(p).map { try JSONAccess.double($0) }
                return (xy[0], xy[1])
            }
            let expected = try JSONAccess.array(c["order"]).map { try JSONAccess.int($0) }
            let indexed = Array(points.enumerated())
            let less = { (a: (offset: Int, element: (Double, Double)), b: (offset: Int, element: (Double, Double))) -> Bool in
                let (x0, y0) = a.element, (x1, y1) = b.element
                if vertical {
                    if margin < x1 - x0 { return false }
                    if margin < x0 - x1 { return true }
                    return y0 - y1 < 0
                }
                if margin < y0 - y1 { return false }
                if margin < y1 - y0 { return true }
                return x0 - x1 < 0
            }
            let sorted = PythonSort.sorted(indexed, by: less)
            if indexed.sorted(by: less).map(\.offset) != expected { naiveMismatches += 1 }
            #expect(sorted.map(\.offset) == expected, "case \(n) (n = \(points.count))")
            largest = max(largest, points.count)
        }
        #expect(largest >= 1000)
        // The vectors are only meaningful if another stable sort would get them wrong.
        #expect(naiveMismatches > 5)
    }

    @Test func isStableForEqualKeys() {
        let items = [(1, "a"), (0, "b"), (1, "c"), (0, "d")]
        #expect(PythonSort.sorted(items) { $0.0 < $1.0 }.map(\.1) == ["b", "d", "a", "c"])
    }
}
