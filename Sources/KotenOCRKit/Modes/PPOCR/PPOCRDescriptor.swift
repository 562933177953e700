/// The `ppocr` mode (PP-OCRv5 mobile: DB detector, orientation classifier, CTC recogniser) as the engine,
/// the model folder and the CLI see it: four files in one folder, the engine's own formats only.
package struct PPOCRDescriptor: ModeDescriptor {
    public init() {}

    public var mode: OCRMode { .ppocr }
    public var fileGroups: [[String]] { PPOCRModelFiles.fileGroups }
    public var searchesSubfolders: Bool { false }
    public var defaultFormats: [ResultFormat] { [.txt, .json] }
    public var referenceJSON: ReferenceJSONStyle? { nil }

    /// `PPOCRPipeline` with the configuration's detector input side, orientation classifier choice, minimum line
    /// confidence, second look, vertical punctuation, reading order, page rotation and stages.
    /// Throws if the keys file cannot be read, `StageError.mismatch`.
    public func pipeline(files: ModeFiles, configuration: OCRConfiguration) throws -> any ModePipeline {
        try PPOCRPipeline(files: PPOCRModelFiles(files: files), detectorMaxSide: configuration.ppocrDetectorMaxSide,
                          useOrientationClassifier: configuration.ppocrOrientationClassifier,
                          minLineConfidence: configuration.ppocrMinLineConfidence, secondLook: configuration.ppocrSecondLook,
                          verticalPunctuation: configuration.ppocrVerticalPunctuation,
                          readingOrder: configuration.readingOrder, pageRotation: configuration.pageRotation,
                          stages: configuration.stages[.ppocr] ?? StageOverrides())
    }
}
