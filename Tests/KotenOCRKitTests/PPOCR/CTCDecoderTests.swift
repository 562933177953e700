import Testing
@testable import KotenOCRKit

@Suite("CTC decoding")
struct CTCDecoderTests {
    @Test("repeats collapse, blanks separate repeats and are dropped, probabilities kept")
    func decode() {
        let keys = ["blank", "a", "b", "🀄"]
        // steps: a a blank a b 🀄(astral) blank
        let argmax = [1, 1, 0, 1, 2, 3, 0]
        let best: [Float] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]
        var probs = [Float](repeating: 0.01, count: argmax.count * 4)
        for (t, k) in argmax.enumerated() { probs[t * 4 + k] = best[t] }
        let r = CTCDecoder(keys: keys).decode(probs, steps: argmax.count, classes: 4)
        #expect(r.text == "aab🀄")
        #expect(r.characters.map(\.confidence) == [best[0], best[3], best[4], best[5]])
        let mean = (best[0] + best[3] + best[4] + best[5]) / 4
        #expect(abs((r.confidence ?? 0) - mean) < 1e-6)
    }
}
