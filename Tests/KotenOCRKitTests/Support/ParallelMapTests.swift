import Foundation
import Testing
@testable import KotenOCRKit

@Suite("parallelMap")
struct ParallelMapTests {
    struct Odd: Error, Equatable { let value: Int }

    @Test("results in input order, every item transformed once", arguments: [1, 2, 4])
    func order(threads: Int) throws {
        let seen = ThreadsSeen()
        let squares = try parallelMap(Array(0..<200), threads: threads) { i -> Int in
            seen.note()
            return i * i
        }
        #expect(squares == (0..<200).map { $0 * $0 })
        #expect(seen.count == 200)
    }

    @Test("the first failing item's error (by index), after every item ran")
    func firstError() {
        let seen = ThreadsSeen()
        #expect(throws: Odd(value: 3)) {
            _ = try parallelMap(Array(0..<50), threads: 2) { i -> Int in
                seen.note()
                if i == 3 || i == 7 { throw Odd(value: i) }
                return i
            }
        }
        #expect(seen.count == 50)
    }

    @Test("a page's line crops: the same pixels cut on two threads as on one")
    func crops() throws {
        let page = try ImageSource(url: TestPaths.image("ndlocr-lite-rs/scaned0.png")).decode()
        let quads = (0..<12).map { k -> Quad in
            let x = Double(40 + k * 120), y = Double(30 + k * 30)
            return Quad(Point(x: x, y: y), Point(x: x + 400, y: y + 8), Point(x: x + 398, y: y + 58), Point(x: x - 2, y: y + 50))
        }
        let one = try parallelMap(quads, threads: 1) { perspectiveCrop(page, quad: $0) }
        let two = try parallelMap(quads, threads: 2) { perspectiveCrop(page, quad: $0) }
        #expect(one.map(\.pixels) == two.map(\.pixels))
        #expect(one.map(\.width) == two.map(\.width))
    }
}

/// Counts the calls made from any thread.
final class ThreadsSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    func note() { lock.withLock { calls += 1 } }
    var count: Int { lock.withLock { calls } }
}
