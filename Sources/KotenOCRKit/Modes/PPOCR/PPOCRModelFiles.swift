import Foundation

/// The PP-OCRv5 files in a model directory.
package struct PPOCRModelFiles: Sendable {
    public static let detectorFile = "ppocrv5_det.onnx"
    public static let classifierFile = "ppocrv5_cls.onnx"
    public static let recogniserFile = "ppocrv5_rec.onnx"
    public static let keysFile = "ppocr_keys_v5.txt"

    static var fileGroups: [[String]] { [[detectorFile], [classifierFile], [recogniserFile], [keysFile]] }

    public let detector: ModelDescriptor
    public let classifier: ModelDescriptor
    public let recogniser: ModelDescriptor
    public let keys: URL

    /// The files of the `ppocr` mode found by `ModelDirectory.files(for:)`.
    public init(files: ModeFiles) { self.init(directory: files.directory) }

    /// The files in `directory` (used as is; `ModelDirectory` finds the directory).
    public init(directory: URL, detectorInputElements: Int = 3 * 960 * 736) {
        detector = ModelDescriptor(mode: .ppocr, role: "detector", stage: .detection, url: directory.appendingPathComponent(Self.detectorFile),
                                   // Measured: ≈ 89 MB of activations for 3×960×736 (42 B per element); 45 keeps a margin.
                                   activationBytesPerElement: 45, typicalInputElements: detectorInputElements)
        // Measured: ≈ 9 MB for a batch of 6 lines (3×80×160 each, 39 B per element).
        classifier = ModelDescriptor(mode: .ppocr, role: "classifier", stage: .classification, url: directory.appendingPathComponent(Self.classifierFile),
                                     activationBytesPerElement: 45, typicalInputElements: 3 * 80 * 160)
        // Measured: ≈ 9.5 MB for one line of 3×48×320 (207 B per element; its [T,18385] output alone is 64 B).
        recogniser = ModelDescriptor(mode: .ppocr, role: "recogniser", stage: .recognition, url: directory.appendingPathComponent(Self.recogniserFile),
                                     activationBytesPerElement: 210, typicalInputElements: 3 * 48 * 640)
        keys = directory.appendingPathComponent(Self.keysFile)
    }
}
