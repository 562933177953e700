import Foundation

/// Greedy CTC decoding of PP-OCR's recogniser output (docs/reference-pipelines.md §4, "Step 4"): arg-max at each
/// step, repeats collapsed, blanks (class 0) dropped; each kept character carries its step's probability.
///
/// Spaces: the model often spreads a space between two words over several steps none of which it wins
/// (`ISBN 978`: 0.11 and 0.20 at two steps, 0.53 at one in a slightly different crop), so best-path decoding
/// drops it or keeps it by chance. Between two characters, a space is kept when the probability that some
/// step of the gap is a space, 1 − Π(1 − p_space), is over one half (steps taken as independent, as CTC
/// takes them); its confidence is that probability.
///
/// Look-alikes: a character whose twin from another script (ー and 一, ペ and ぺ, ロ and 口, ...) is the model's
/// runner-up at its step becomes that twin when its neighbours are of the twin's script (`LookAlikeTwins`).
package struct CTCDecoder: Sendable {
    /// Class k's text (index 0 is the blank, never emitted).
    public let keys: [String]
    /// The space's class: the key list's last entry when it is " " (PP-OCR's `use_space_char`).
    let space: Int?

    public init(keys: [String]) {
        self.keys = keys
        space = keys.count > 1 && keys.last == " " ? keys.count - 1 : nil
    }

    /// `probabilities` is [steps × classes] row-major (softmax output).
    public func decode(_ probabilities: [Float], steps: Int, classes: Int) -> RecognisedText {
        probabilities.withUnsafeBufferPointer { decode($0, steps: steps, classes: classes) }
    }

    /// The same over the probabilities in place (e.g. ONNX Runtime's output buffer).
    public func decode(_ p: UnsafeBufferPointer<Float>, steps: Int, classes: Int) -> RecognisedText {
        guard steps > 0, classes > 0, p.count >= steps * classes else { return .empty }
        return decode(CTCSteps(p, steps: steps, classes: classes), p, classes: classes)
    }

    /// The same from the steps' arg-max and runner-up already found in `p` (`CTCSteps`); `p` gives the space's
    /// probability at the blank steps.
    func decode(_ top: CTCSteps, _ p: UnsafeBufferPointer<Float>, classes: Int) -> RecognisedText {
        guard top.count > 0, classes > 0, p.count >= top.count * classes else { return .empty }
        let space = self.space.flatMap { $0 < classes ? $0 : nil }
        var chars: [RecognisedText.Character] = []
        var runnerUps: [(text: String, probability: Float)?] = []
        var previous = -1
        var noSpace = 1.0  // probability that no step of the current gap is a space
        for t in 0..<top.count {
            let best = top.best[t], second = top.second[t]
            if best == 0, let space { noSpace *= 1 - Double(p[t * classes + space]) }
            if best != 0 && best != previous && best < keys.count {
                if best != space, let last = chars.last, last.text != " ", noSpace < 0.5 {
                    chars.append(.init(text: " ", confidence: Float(1 - noSpace)))
                    runnerUps.append(nil)
                }
                chars.append(.init(text: keys[best], confidence: top.bestProbability[t]))
                runnerUps.append(second > 0 && second < keys.count ? (keys[second], top.secondProbability[t]) : nil)
                noSpace = 1
            }
            previous = best
        }
        return RecognisedText(characters: LookAlikeTwins.resolve(chars, runnerUps: runnerUps))
    }
}
