import Foundation

/// NDLOCR-Lite's files in a model directory (`ndl/`, or NDL's own `src` with `model/` and `config/`),
/// under NDL's published names. Which recogniser is the 30-, 50- or 100-character model is decided from
/// the sessions' shapes when the models load (`NDLPipeline.routing`), never from these names.
package struct NDLModelFiles: Sendable {
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
        self.init(files: try models.files(for: NDLDescriptor()))
    }

    /// The files of the `ndl` mode found by `ModelDirectory.files(for:)`.
    public init(files: ModeFiles) {
        // Activation costs per input element measured on the stand-ins (StandInModels suite):
        // DEIM ≈ 156 MB at 3×800×800, PARSeq 24×W ≈ 3.8 / 5.4 / 11 MB at W = 256 / 384 / 768.
        detector = ModelDescriptor(mode: .ndl, role: "detector", stage: .detection, url: files.url(Self.detectorFile),
                                   activationBytesPerElement: 81, typicalInputElements: 3 * 800 * 800)
        recognisers = zip(Self.recogniserFiles, [(30, 256), (50, 384), (100, 768)]).map { names, slot in
            ModelDescriptor(mode: .ndl, role: "recogniser\(slot.0)", stage: .recognition, url: files.url(names[0]),
                            activationBytesPerElement: 200, typicalInputElements: 3 * 24 * slot.1)
        }
        classes = files.url(Self.classesFile)
        charset = files.url(Self.charsetFile)
    }
}
