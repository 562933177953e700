/// Where the characters of a greedy CTC decoding sit along the line: each character is emitted by a run of steps
/// whose arg-max is its class (`CTCDecoder`'s rule: not the blank, not a repeat of the step before, a known key);
/// its centre is the middle of that run, each step covering `tensorWidth / steps` input pixels. Used to tell which
/// characters of a body line a ruby line annotates (and, in the glyph-cell test of `PPOCRPageOrientation`, where
/// glyphs are). Reference: docs/reference-pipelines.md §4 step 4; the decoder itself is unchanged.
enum CTCAlignment {
    /// The centre of each emitted character as a fraction of `contentWidth` (the line's width in the recogniser's
    /// input before its right padding), clamped to [0, 1]. `p` is [steps × classes] row-major; classes at or
    /// beyond `keyCount` are never emitted (as in `CTCDecoder`).
    static func centres(_ p: UnsafeBufferPointer<Float>, steps: Int, classes: Int, keyCount: Int,
                        tensorWidth: Int, contentWidth: Int) -> [Double] {
        guard steps > 0, classes > 0, p.count >= steps * classes, contentWidth > 0 else { return [] }
        let stride = Double(tensorWidth) / Double(steps)
        var centres: [Double] = []
        var previous = -1
        var runStart = 0
        func close(_ end: Int) {
            let middle = Double(runStart + end) / 2 * stride
            centres.append(min(1, max(0, middle / Double(contentWidth))))
        }
        for t in 0..<steps {
            var best = 0
            var bestP = p[t * classes]
            for k in 1..<classes where p[t * classes + k] > bestP {
                best = k
                bestP = p[t * classes + k]
            }
            if best != previous {
                if previous > 0 && previous < keyCount { close(t) }
                runStart = t
            }
            previous = best
        }
        if previous > 0 && previous < keyCount { close(steps) }
        return centres
    }
}
