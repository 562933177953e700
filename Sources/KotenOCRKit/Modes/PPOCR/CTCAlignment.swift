/// Where the characters of a greedy CTC decoding sit along the line: each character is emitted by a run of steps
/// whose arg-max is its class (`CTCDecoder`'s rule: not the blank, not a repeat of the step before, a known key);
/// its centre is the middle of that run, each step covering `tensorWidth / steps` input pixels. Used to tell which
/// characters of a body line a ruby line annotates (and, in the glyph-cell test of `PPOCRPageOrientation`, where
/// glyphs are). Reference: docs/reference-pipelines.md §4 step 4; the decoder itself is unchanged.
enum CTCAlignment {
    /// The centre of each emitted character as a fraction of `contentWidth` (the line's width in the recogniser's
    /// input before its right padding), clamped to [0, 1], from each step's arg-max class (`CTCSteps.best`); classes
    /// at or beyond `keyCount` are never emitted (as in `CTCDecoder`).
    static func centres(_ best: [Int], keyCount: Int, tensorWidth: Int, contentWidth: Int) -> [Double] {
        let steps = best.count
        guard steps > 0, contentWidth > 0 else { return [] }
        let stride = Double(tensorWidth) / Double(steps)
        var centres: [Double] = []
        var previous = -1
        var runStart = 0
        func close(_ end: Int) {
            let middle = Double(runStart + end) / 2 * stride
            centres.append(min(1, max(0, middle / Double(contentWidth))))
        }
        for t in 0..<steps {
            if best[t] != previous {
                if previous > 0 && previous < keyCount { close(t) }
                runStart = t
            }
            previous = best[t]
        }
        if previous > 0 && previous < keyCount { close(steps) }
        return centres
    }
}
