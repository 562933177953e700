/// One RTMDet line detection after the reference post-processing (parity README K1, K2).
/// Every koten detection is a `line_main` (TYPE 本文).
package struct KotenDetection: Sendable, Hashable {
    /// The detector score (float32), as the model returned it.
    public var confidence: Float
    /// Box in image pixels, vertically expanded by 2 % of its height each way, not clipped
    /// (y1 can be negative).
    public var box: PixelBox

    public init(confidence: Float, box: PixelBox) {
        self.confidence = confidence
        self.box = box
    }
}
