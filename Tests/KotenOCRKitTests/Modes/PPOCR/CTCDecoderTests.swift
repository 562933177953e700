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

    /// Steps of (best class, its probability, the space's probability) over keys blank, a, b, space.
    static func probabilities(_ steps: [(Int, Float, Float)]) -> [Float] {
        steps.flatMap { best, p, space -> [Float] in
            var row: [Float] = [0.001, 0.001, 0.001, 0.001]
            row[3] = space
            row[best] = p
            return row
        }
    }

    @Test("a space the model spreads over a gap is kept when some step of it is a space with probability over one half")
    func spreadSpace() {
        let decoder = CTCDecoder(keys: ["blank", "a", "b", " "])
        #expect(decoder.space == 3)
        // a, then two blank steps with the space at 0.3 and 0.4: 1 − 0.7 × 0.6 = 0.58 > 0.5.
        let spread = Self.probabilities([(1, 0.9, 0), (0, 0.7, 0.3), (0, 0.6, 0.4), (2, 0.9, 0)])
        let r = decoder.decode(spread, steps: 4, classes: 4)
        #expect(r.text == "a b")
        #expect(abs(r.characters[1].confidence - 0.58) < 1e-6)
        // One step at 0.29 (what the model gives `ISBN 978` in one crop): no space.
        #expect(decoder.decode(Self.probabilities([(1, 0.9, 0), (0, 0.71, 0.29), (2, 0.9, 0)]), steps: 3, classes: 4).text == "ab")
        // A space that wins its step is kept as it is, once; none is added before the first or after the last character.
        #expect(decoder.decode(Self.probabilities([(0, 0.5, 0.45), (1, 0.9, 0), (3, 0.8, 0.8), (0, 0.5, 0.45), (2, 0.9, 0),
                                                   (0, 0.4, 0.6)]), steps: 6, classes: 4).text == "a b ")
        #expect(decoder.decode(Self.probabilities([(0, 0.5, 0.45), (0, 0.5, 0.45), (1, 0.9, 0), (0, 0.5, 0.45), (0, 0.5, 0.45)]),
                               steps: 5, classes: 4).text == "a")
        // Keys without a trailing space class: plain best-path decoding.
        #expect(CTCDecoder(keys: ["blank", "a", "b", "c"]).decode(spread, steps: 4, classes: 4).text == "ab")
    }
}

@Suite("CTC steps: each step's two best classes")
struct CTCStepsTests {
    /// The scan `CTCSteps` replaces: from class 0, keeping only strictly larger values.
    static func scanned(_ row: ArraySlice<Float>) -> (best: Int, second: Int) {
        let p = Array(row)
        var best = 0, second = -1
        var bestP = p[0], secondP = -Float.infinity
        for k in 1..<p.count where p[k] > secondP {
            if p[k] > bestP {
                (second, secondP) = (best, bestP)
                (best, bestP) = (k, p[k])
            } else {
                (second, secondP) = (k, p[k])
            }
        }
        return (best, second)
    }

    @Test("the arg-max and runner-up of every step as the scan finds them, ties included", arguments: [1, 2, 5, 16, 17, 40, 18385])
    func asScanned(classes: Int) {
        var rng = SplitMix64(seed: UInt64(classes))
        let steps = 30
        // Few distinct values, so that ties are frequent; some rows with the largest value first or last.
        var p = (0..<(steps * classes)).map { _ in Float(rng.next() % 6) / 8 }
        p[0] = 1  // step 0: the largest value at class 0
        p[2 * classes - 1] = 1  // step 1: at the last class
        let top = p.withUnsafeBufferPointer { CTCSteps($0, steps: steps, classes: classes) }
        for t in 0..<steps {
            let row = p[(t * classes)..<((t + 1) * classes)]
            let expected = Self.scanned(row)
            #expect(top.best[t] == expected.best && top.second[t] == expected.second, "step \(t)")
            #expect(top.bestProbability[t] == row[row.startIndex + expected.best])
            if expected.second >= 0 { #expect(top.secondProbability[t] == row[row.startIndex + expected.second]) }
        }
    }
}

