/// The registry: the one place that names the mode wings (docs/architecture.md, "What may depend on what").
/// Everything that differs between modes is asked of the descriptor it returns. Only the façade (`KotenOCR`),
/// the batch and the command line ask the registry; code below them takes an `any ModeDescriptor`.
extension OCRMode {
    /// The wing that describes this mode.
    package var descriptor: any ModeDescriptor {
        switch self {
        case .koten: return KotenDescriptor()
        case .ndl: return NDLDescriptor()
        case .ppocr: return PPOCRDescriptor()
        }
    }
}

extension ResultFormat {
    /// Whether pages of `mode` can be written in this format (`ModeDescriptor.formats`: `xml`, `ndl-json` for
    /// ndl and koten; `tei` for koten).
    public func supports(_ mode: OCRMode) -> Bool { mode.descriptor.formats.contains(self) }
}
