/// The `koten` mode (NDL Koten OCR-Lite: RTMDet line detector, one PARSeq recogniser) as the engine, the
/// model folder and the CLI see it: its files (its own `src` layout accepted), NDL's XML and JSON written
/// byte for byte, and the run's TEI document.
package struct KotenDescriptor: ModeDescriptor {
    public init() {}

    public var mode: OCRMode { .koten }
    public var fileGroups: [[String]] { KotenModelFiles.fileGroups }
    public var searchesSubfolders: Bool { true }
    public var defaultFormats: [ResultFormat] { [.txt, .json, .xml] }
    public var referenceJSON: ReferenceJSONStyle? { KotenPage.jsonStyle }

    /// The run's TEI document (`tei`).
    public func runDocument(for format: ResultFormat) -> (any RunDocument)? { format == .tei ? TEIRun() : nil }

    /// `KotenPipeline` with the configuration's reading order, page rotation and stages (charset read and
    /// checked). Throws `ModelError.invalidFile`, `StageError.mismatch`.
    public func pipeline(files: ModeFiles, configuration: OCRConfiguration) throws -> any ModePipeline {
        try KotenPipeline(files: KotenModelFiles(files: files), readingOrder: configuration.readingOrder,
                          pageRotation: configuration.pageRotation, stages: configuration.stages[.koten] ?? StageOverrides())
    }
}
