/// Greedy CTC decoding of PP-OCR's recogniser output (docs/reference-pipelines.md §4, "Step 4"): arg-max at each
/// step, repeats collapsed, blanks (class 0) dropped; each kept character carries its step's probability.
public struct CTCDecoder: Sendable {
    /// Class k's text (index 0 is the blank, never emitted).
    public let keys: [String]

    public init(keys: [String]) { self.keys = keys }

    /// `probabilities` is [steps × classes] row-major (softmax output).
    public func decode(_ probabilities: [Float], steps: Int, classes: Int) -> RecognisedText {
        probabilities.withUnsafeBufferPointer { decode($0, steps: steps, classes: classes) }
    }

    /// The same over the probabilities in place (e.g. ONNX Runtime's output buffer).
    public func decode(_ p: UnsafeBufferPointer<Float>, steps: Int, classes: Int) -> RecognisedText {
        guard steps > 0, classes > 0, p.count >= steps * classes else { return .empty }
        var chars: [RecognisedText.Character] = []
        var previous = -1
        for t in 0..<steps {
            var best = 0
            var bestP = p[t * classes]
            for k in 1..<classes where p[t * classes + k] > bestP {
                best = k
                bestP = p[t * classes + k]
            }
            if best != 0 && best != previous && best < keys.count {
                chars.append(.init(text: keys[best], confidence: bestP))
            }
            previous = best
        }
        return RecognisedText(characters: chars)
    }
}
