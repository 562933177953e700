import Foundation

/// One model file a mode needs, and what the store knows about its memory before loading it.
public struct ModelDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The mode whose pipeline uses this model.
    public let mode: OCRMode
    /// Its role in that pipeline, e.g. "detector", "classifier", "recogniser30".
    public let role: String
    /// The stage it serves.
    package let stage: ModelStage
    /// The .onnx file.
    public let url: URL
    /// Size of the file in bytes.
    public let fileBytes: Int
    /// Estimated activation bytes per input element of one run, used until a run is measured.
    /// Detectors at page size dominate peak memory (docs/memory-design.md, "What dominates peak memory": PP-OCRv5's DB detector ≈ 120 MB
    /// for a 3×960×704 input ≈ 60 bytes per element).
    public let activationBytesPerElement: Double
    /// The input element count of a typical run (e.g. 3×960×704 for a detector), for budget planning
    /// before the first run.
    public let typicalInputElements: Int

    package init(mode: OCRMode, role: String, stage: ModelStage, url: URL, activationBytesPerElement: Double = 60,
                typicalInputElements: Int = 3 * 48 * 320) {
        self.mode = mode
        self.role = role
        self.stage = stage
        self.url = url
        self.fileBytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        self.activationBytesPerElement = activationBytesPerElement
        self.typicalInputElements = typicalInputElements
    }

    /// "ppocr/detector".
    public var id: String { "\(mode.rawValue)/\(role)" }
    public var description: String { "\(id) (\(url.lastPathComponent))" }

    /// Resident bytes expected for the loaded session before it is measured: 1.08 × file + 8 MiB
    /// (ORT 1.32, arena off; docs/native-dependencies.md, "Memory").
    public var estimatedResidentBytes: Int { Int(Double(fileBytes) * 1.08) + 8 << 20 }
}
