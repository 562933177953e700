/// Text direction of a line, from its geometry.
public enum LineOrientation: String, Sendable, Codable {
    case horizontal, vertical

    /// Vertical when the line is at least 1.5 times as tall as it is wide (PP-OCR's rule for turning crops;
    /// docs/reference-pipelines.md §4, "Step 2").
    public init(width: Double, height: Double) {
        self = height >= 1.5 * width ? .vertical : .horizontal
    }
}
