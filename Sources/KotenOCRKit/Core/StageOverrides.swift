/// Stages a test or an app supplies in place of a mode's own (`OCRConfiguration.stages`); nil keeps the
/// mode's. The pipeline holds them behind the same protocols as its own stages, so nothing else changes:
/// memory, limits, diagnostics and the reading order apply as they do to the mode's stages.
public struct StageOverrides: Sendable {
    /// Finds the page's regions instead of the mode's detector. Its `Region` must be what the mode reads:
    /// `Detection` (ppocr), `NDLDetection` (ndl), `KotenDetection` (koten).
    public var detector: (any PageDetector)?
    /// Reads the lines instead of the mode's recognisers (ppocr: the orientation classifier and the CTC
    /// recogniser; ndl: every model of the cascade; koten: its PARSeq recogniser).
    public var reader: (any LineReader<RecognisedText>)?
    /// Puts the lines in reading order instead of the mode's order stage (ppocr: `PageFrameOrder` in the
    /// configuration's `readingOrder` style). The `ndl` and `koten` modes order NDL's page tree and take none.
    public var orderer: (any PageOrderer)?

    public init(detector: (any PageDetector)? = nil, reader: (any LineReader<RecognisedText>)? = nil,
                orderer: (any PageOrderer)? = nil) {
        self.detector = detector
        self.reader = reader
        self.orderer = orderer
    }

    /// The detector override for `mode`, whose stages read `Region`s; nil when there is none.
    /// Throws `StageError.mismatch` when it finds something else.
    func detector<Region>(finding _: Region.Type, mode: OCRMode) throws -> (any PageDetector<Region>)? {
        guard let detector else { return nil }
        guard let typed = detector as? any PageDetector<Region> else {
            throw StageError.mismatch(mode: mode, expected: String(describing: Region.self), found: Self.regionName(detector))
        }
        return typed
    }

    private static func regionName<D: PageDetector>(_ detector: D) -> String { String(describing: D.Region.self) }
}

/// A stage supplied in `OCRConfiguration.stages` does not fit its mode.
package enum StageError: Error, Equatable, CustomStringConvertible {
    /// The detector supplied for `mode` finds `found`; the mode reads `expected`.
    case mismatch(mode: OCRMode, expected: String, found: String)

    public var description: String {
        switch self {
        case let .mismatch(mode, expected, found):
            return "the detector supplied for mode \(mode) finds \(found); mode \(mode) reads \(expected)"
        }
    }
}
