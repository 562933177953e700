import Foundation

/// NDL Koten OCR-Lite's files in a model directory (`koten/`, or its own `src` with `model/` and `config/`).
package struct KotenModelFiles: Sendable {
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
        self.init(files: try models.files(for: KotenDescriptor()))
    }

    /// The files of the `koten` mode found by `ModelDirectory.files(for:)`.
    public init(files: ModeFiles) {
        // Activation costs per input element measured on the stand-ins (StandInModels suite):
        // RTMDet ≈ 146 MB at 3×1280×1280, PARSeq 32×384 ≈ 10 MB.
        detector = ModelDescriptor(mode: .koten, role: "detector", stage: .detection, url: files.url(Self.detectorFile),
                                   activationBytesPerElement: 31, typicalInputElements: 3 * 1280 * 1280)
        recogniser = ModelDescriptor(mode: .koten, role: "recogniser", stage: .recognition, url: files.url(Self.recogniserFile),
                                     activationBytesPerElement: 270, typicalInputElements: 3 * 32 * 384)
        charset = files.url(Self.charsetFile)
    }
}
