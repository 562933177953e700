import Foundation

/// NDLOCR-Lite's files in a model directory (`ndl/`, or NDL's own `src` with `model/` and `config/`),
/// under NDL's published names. Which recogniser is the 30-, 50- or 100-character model is decided from
/// the sessions' shapes when the models load (`NDLPipeline.routing`), never from these names.
public struct NDLModelFiles: Sendable {
    public static let detectorFile = "deim-s-1024x1024.onnx"
    /// The three cascade recognisers: NDLOCR-Lite v1.2 (24×W) names first, then v1.0–1.1 (16×W) names.
    public static let recogniserFiles: [[String]] = [
        ["parseq-ndl-24x256-30-tiny-189epoch-tegaki3-r8data-202604.onnx", "parseq-ndl-16x256-30-tiny-192epoch-tegaki3.onnx"],
        ["parseq-ndl-24x384-50-tiny-300epoch-tegaki3-r8data-202604.onnx", "parseq-ndl-16x384-50-tiny-146epoch-tegaki2.onnx"],
        ["parseq-ndl-24x768-100-tiny-153epoch-tegaki3-r8data-202604.onnx", "parseq-ndl-16x768-100-tiny-165epoch-tegaki2.onnx"],
    ]
    /// The layout classes (17, `names:`).
    public static let classesFile = "ndl.yaml"
    /// The recognisers' charset (`model.charset_train`, 7141 code points).
    public static let charsetFile = "NDLmoji.yaml"

    static var fileGroups: [[String]] { [[detectorFile]] + recogniserFiles + [[classesFile], [charsetFile]] }

    public let detector: ModelDescriptor
    /// The three recognisers in name order (the role names the file's name slot; shapes decide the routing).
    public let recognisers: [ModelDescriptor]
    public let classes: URL
    public let charset: URL

    /// The files of `models` for the `ndl` mode. Throws `ModelError.missingFiles` naming what is missing.
    public init(models: ModelDirectory) throws {
        let missing = models.missingFiles(for: .ndl)
        guard missing.isEmpty,
              let detector = models.file(Self.detectorFile, for: .ndl),
              let classes = models.file(Self.classesFile, for: .ndl),
              let charset = models.file(Self.charsetFile, for: .ndl) else {
            throw ModelError.missingFiles(mode: .ndl, directory: models.directory(for: .ndl).path, files: missing)
        }
        // Activation costs per input element measured on the stand-ins (StandInModels suite):
        // DEIM ≈ 156 MB at 3×800×800, PARSeq 24×W ≈ 3.8 / 5.4 / 11 MB at W = 256 / 384 / 768.
        self.detector = ModelDescriptor(mode: .ndl, role: "detector", stage: .detection, url: detector,
                                        activationBytesPerElement: 81, typicalInputElements: 3 * 800 * 800)
        recognisers = zip(Self.recogniserFiles, [(30, 256), (50, 384), (100, 768)]).compactMap { names, slot in
            models.file(anyOf: names, for: .ndl).map {
                ModelDescriptor(mode: .ndl, role: "recogniser\(slot.0)", stage: .recognition, url: $0,
                                activationBytesPerElement: 200, typicalInputElements: 3 * 24 * slot.1)
            }
        }
        self.classes = classes
        self.charset = charset
    }
}

/// NDL Koten OCR-Lite's files in a model directory (`koten/`, or its own `src` with `model/` and `config/`).
public struct KotenModelFiles: Sendable {
    public static let detectorFile = "rtmdet-s-1280x1280.onnx"
    public static let recogniserFile = "parseq-ndl-32x384-tiny-10.onnx"
    /// The koten charset: NDLOCR-Lite's with its four astral characters replaced by '〓'.
    public static let charsetFile = "NDLmoji.yaml"

    static var fileGroups: [[String]] { [[detectorFile], [recogniserFile], [charsetFile]] }

    public let detector: ModelDescriptor
    public let recogniser: ModelDescriptor
    public let charset: URL

    /// The files of `models` for the `koten` mode. Throws `ModelError.missingFiles` naming what is missing.
    public init(models: ModelDirectory) throws {
        let missing = models.missingFiles(for: .koten)
        guard missing.isEmpty,
              let detector = models.file(Self.detectorFile, for: .koten),
              let recogniser = models.file(Self.recogniserFile, for: .koten),
              let charset = models.file(Self.charsetFile, for: .koten) else {
            throw ModelError.missingFiles(mode: .koten, directory: models.directory(for: .koten).path, files: missing)
        }
        // Activation costs per input element measured on the stand-ins (StandInModels suite):
        // RTMDet ≈ 146 MB at 3×1280×1280, PARSeq 32×384 ≈ 10 MB.
        self.detector = ModelDescriptor(mode: .koten, role: "detector", stage: .detection, url: detector,
                                        activationBytesPerElement: 31, typicalInputElements: 3 * 1280 * 1280)
        self.recogniser = ModelDescriptor(mode: .koten, role: "recogniser", stage: .recognition, url: recogniser,
                                          activationBytesPerElement: 270, typicalInputElements: 3 * 32 * 384)
        self.charset = charset
    }
}
