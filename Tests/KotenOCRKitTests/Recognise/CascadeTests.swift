import Foundation
import Testing
@testable import KotenOCRKit

/// A recogniser answering a fixed length per model and recording its calls.
private final class LengthRecogniser: @unchecked Sendable {
    let lengths: [CascadeModel: Int]
    private let lock = NSLock()
    private var log: [String] = []
    var calls: [String] { lock.withLock { log } }

    init(_ lengths: [CascadeModel: Int]) { self.lengths = lengths }

    func read(model: CascadeModel, crop: PixelBox) async throws -> String {
        lock.withLock { log.append("\(model.rawValue) \(crop.x1),\(crop.width)") }
        return String(repeating: "字", count: lengths[model] ?? 0)
    }
}

@Suite struct CascadeTests {
    private func read(_ cls: Double, box: PixelBox, _ lengths: [CascadeModel: Int]) async throws -> (String, [String]) {
        let r = LengthRecogniser(lengths)
        let s = try await NDLCascade.read(lines: [RecognitionLine(box: box, charCountClass: cls)],
                                          imageWidth: 1000, imageHeight: 1000, reader: r.read)
        return (s[0], r.calls)
    }

    private let wide = PixelBox(x1: 10, y1: 0, x2: 111, y2: 20)

    @Test func escalatesAtTheReferenceLengths() async throws {
        #expect(try await read(3, box: wide, [.rec30: 24]).1 == ["rec30 10,101"])
        #expect(try await read(3, box: wide, [.rec30: 25, .rec50: 44]).1 == ["rec30 10,101", "rec50 10,101"])
        #expect(try await read(2, box: wide, [.rec50: 45, .rec100: 97]).1 == ["rec50 10,101", "rec100 10,101"])
        #expect(try await read(0, box: wide, [.rec100: 1]).1 == ["rec100 10,101"])
    }

    @Test func splitsLongHorizontalLinesAtHalfWidth() async throws {
        let (text, calls) = try await read(1, box: wide, [.rec100: 98])
        #expect(calls == ["rec100 10,101", "rec100 10,50", "rec100 60,51"])
        #expect(text.count == 196)
        let vertical = PixelBox(x1: 0, y1: 0, x2: 20, y2: 500)
        #expect(try await read(1, box: vertical, [.rec100: 100]).1 == ["rec100 0,20"])
    }

    @Test func emptyCropIsNotRead() async throws {
        let outside = PixelBox(x1: 1200, y1: 0, x2: 1300, y2: 20)
        #expect(try await read(3, box: outside, [.rec30: 5]) == ("", []))
    }

    @Test func concurrentReadsKeepLineOrder() async throws {
        let lines = (0..<20).map { RecognitionLine(box: PixelBox(x1: $0, y1: 0, x2: $0 + 5, y2: 100), charCountClass: 3) }
        let r = LengthRecogniser([.rec30: 3])
        let s = try await NDLCascade.read(lines: lines, imageWidth: 100, imageHeight: 100, maxConcurrentReads: 4, reader: r.read)
        #expect(s.count == 20 && s.allSatisfy { $0 == "字字字" })
        #expect(Set(r.calls) == Set((0..<20).map { "rec30 \($0),5" }))
    }
}
