/// One DEIM detection after the reference post-processing (parity README N1, N2).
package struct NDLDetection: Sendable, Hashable {
    /// 0-based class index into `NDLClass.all` (the model's 1-based label − 1).
    public var classIndex: Int
    /// The detector score (float32 sigmoid), as the model returned it.
    public var confidence: Float
    /// Box in image pixels of the padded square (may run past the image, never past S).
    public var box: PixelBox
    /// The `char_count` head class (3 = 1–20 chars, 2 = 21–40, 1 = 41–100, 0 = other), or 100
    /// when the model has no char-count output. Written as PRED_CHAR_CNT and used by the cascade.
    public var charCountClass: Double

    public init(classIndex: Int, confidence: Float, box: PixelBox, charCountClass: Double) {
        self.classIndex = classIndex
        self.confidence = confidence
        self.box = box
        self.charCountClass = charCountClass
    }
}
