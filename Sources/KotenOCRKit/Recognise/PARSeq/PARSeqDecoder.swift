import Foundation

/// Greedy decoding of PARSeq logits, as NDL's references decode them, keeping what they drop.
///
/// At each step: the arg-max token (the first maximum, as NumPy's `argmax`); stop at the first 0 (end of
/// sequence); token k is `charset[k − 1]`. No CTC collapsing: PARSeq repeats a character only when the
/// line does (八八八; docs/field-notes.md, "The models' own limits"). Each character keeps its probability, the softmax of the step at
/// the arg-max (the reference computes none; its opt-in tate-chū-yoko wrapper uses the same value).
/// Reference: docs/reference-pipelines.md §1.5 "Token IDs", "Decoding", §3.5.
package enum PARSeqDecoder {
    /// Decodes logits float32 [1, `steps`, `classes`] (row-major). A token past the charset (only
    /// possible for a model that failed its signature check) decodes as U+FFFD.
    public static func decode(_ logits: [Float], steps: Int, classes: Int, charset: PARSeqCharset) -> RecognisedText {
        logits.withUnsafeBufferPointer { decode($0, steps: steps, classes: classes, charset: charset) }
    }

    /// The same over logits in place (e.g. one line's rows of a batch in ONNX Runtime's output buffer).
    public static func decode(_ all: UnsafeBufferPointer<Float>, steps: Int, classes: Int, charset: PARSeqCharset) -> RecognisedText {
        guard classes > 0, steps > 0, all.count >= steps * classes else { return .empty }
        var characters: [RecognisedText.Character] = []
        for step in 0..<steps {
            let row = UnsafeBufferPointer(rebasing: all[(step * classes)..<((step + 1) * classes)])
            var best = 0
            var maximum = row[0]
            for k in 1..<classes where row[k] > maximum {
                maximum = row[k]
                best = k
            }
            if best == 0 { break }
            var sum: Float = 0
            for v in row { sum += expf(v - maximum) }
            let scalar = best - 1 < charset.entries.count ? charset.entries[best - 1] : "\u{FFFD}"
            characters.append(RecognisedText.Character(text: String(scalar), confidence: 1 / sum))
        }
        return RecognisedText(characters: characters)
    }
}
