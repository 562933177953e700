/// A region a detector found, in page pixel coordinates.
package struct Detection: Sendable, Equatable {
    /// Outline, corners clockwise from the top-left (axis-aligned for NDL's detectors).
    public var quad: Quad
    /// The detector's confidence, 0–1.
    public var score: Float
    /// Class index in the model's class list (0 for single-class detectors).
    public var classIndex: Int
    /// DEIM's predicted character-count class (3: 1–20, 2: 21–40, 1: 41–100, 0: other); nil for other models.
    public var charCountClass: Int?

    public init(quad: Quad, score: Float, classIndex: Int = 0, charCountClass: Int? = nil) {
        self.quad = quad
        self.score = score
        self.classIndex = classIndex
        self.charCountClass = charCountClass
    }
}
