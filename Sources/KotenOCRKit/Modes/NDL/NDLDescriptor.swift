/// The `ndl` mode (NDLOCR-Lite: DEIM layout detector, three PARSeq recognisers cascaded) as the engine, the
/// model folder and the CLI see it: NDL's files (current or older published names, NDL's own `src` layout
/// accepted), and NDL's own XML and JSON written byte for byte beside the engine's formats.
package struct NDLDescriptor: ModeDescriptor {
    public init() {}

    public var mode: OCRMode { .ndl }
    public var fileGroups: [[String]] { NDLModelFiles.fileGroups }
    public var searchesSubfolders: Bool { true }
    public var defaultFormats: [ResultFormat] { [.txt, .json, .xml] }
    public var referenceJSON: ReferenceJSONStyle? { NDLPage.jsonStyle }

    /// `NDLPipeline` with the configuration's reading order, page rotation and stages (classes and charset read and
    /// checked). Throws `ModelError.invalidFile`, `StageError.mismatch`.
    public func pipeline(files: ModeFiles, configuration: OCRConfiguration) throws -> any ModePipeline {
        try NDLPipeline(files: NDLModelFiles(files: files), readingOrder: configuration.readingOrder,
                        pageRotation: configuration.pageRotation, stages: configuration.stages[.ndl] ?? StageOverrides())
    }
}
