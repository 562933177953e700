/// A model family, each its own pipeline (docs/reference-pipelines.md).
public enum OCRMode: String, Sendable, CaseIterable, Codable, Hashable, CustomStringConvertible {
    /// NDL Koten OCR-Lite: RTMDet line detector + PARSeq 32×384 (classical books, kuzushiji).
    case koten
    /// NDLOCR-Lite: DEIMv2 layout detector + three PARSeq recognisers cascaded by line length.
    case ndl
    /// PP-OCRv5 mobile: DB text detector + orientation classifier + CTC recogniser.
    case ppocr

    public var description: String { rawValue }
}
