import Foundation
import Testing
@testable import KotenOCRKit

@Suite struct ReadingOrderTests {
    private func line(_ x: Int, _ y: Int, _ w: Int, _ h: Int, conf: String? = nil) -> PageNode {
        var n = PageNode(tag: "LINE", attributes: [
            .init(name: "TYPE", value: "本文"), .init(name: "X", value: "\(x)"), .init(name: "Y", value: "\(y)"),
            .init(name: "WIDTH", value: "\(w)"), .init(name: "HEIGHT", value: "\(h)"),
        ], tail: "\n")
        n[attribute: "CONF"] = conf
        return n
    }

    @Test func duplicateKeepsHigherConfAndEarlierOnTie() {
        let dedup = DuplicateFilter(threshold: 0.8, needsPositiveArea: true)
        let a = line(0, 0, 10, 100, conf: "0.900"), b = line(1, 0, 10, 100, conf: "0.950"), c = line(1, 1, 10, 100, conf: "0.950")
        #expect(dedup.filter([a, b]).map { $0[attribute: "X"] } == ["1"])
        #expect(dedup.filter([b, c]).map { $0[attribute: "Y"] } == ["0"])
        let apart = line(50, 0, 10, 100, conf: "0.950")
        #expect(dedup.filter([a, apart]).count == 2)
    }

    @Test func kotenThresholdIsStricter() {
        // Overlap 85 % of the smaller box: a duplicate for NDL (> 0.8), not for koten (> 0.9).
        let a = line(0, 0, 100, 100, conf: "0.900"), b = line(15, 0, 100, 100, conf: "0.800")
        #expect(DuplicateFilter(threshold: 0.8, needsPositiveArea: true).filter([a, b]).count == 1)
        #expect(DuplicateFilter(threshold: 0.9, needsPositiveArea: false).filter([a, b]).count == 2)
    }

    @Test func smoothingNineteenItemsIsQuickAndKeepsAnOrderedPage() {
        // 19 vertical page-level lines right to left: the largest graph with ±2 edges.
        var page = PageNode(tag: "PAGE", attributes: [.init(name: "WIDTH", value: "2000"), .init(name: "HEIGHT", value: "1000")],
                            text: "\n", tail: "\n")
        page.children = (0..<19).map { line(1900 - 100 * $0, 10, 30, 900, conf: "0.9") }
        let start = Date()
        ReadingOrder.apply(to: &page, options: .ndl)
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(page.children.map { $0[attribute: "ORDER"] } == (0..<19).map { "\($0)" })
    }
}
