import Foundation

/// PP-OCRv5 mobile's CTC line recogniser (docs/reference-pipelines.md §4, "Step 4").
///
/// Input `x` float32 [1,3,48,W]: the line resized to height 48 keeping its aspect ratio (bilinear),
/// BGR, x/127.5 − 1, padded on the right with zeros to W = max(320, width). Output [1,T,18385] softmax,
/// decoded by `CTCDecoder` over `ppocr_keys_v5.txt` (line k = class k; line 0 is the blank).
public struct PPOCRRecogniser: Sendable {
    public let model: ModelDescriptor
    public let decoder: CTCDecoder
    static let height = 48
    static let minWidth = 320
    /// Lines wider than this (after scaling to height 48) are squeezed to it, bounding one run's memory.
    static let maxWidth = 3200

    /// Loads the keys file (one entry per line; split by lines, not characters: some entries are astral).
    /// Throws if the file cannot be read.
    public init(model: ModelDescriptor, keysFile: URL) throws {
        self.model = model
        let text = try String(contentsOf: keysFile, encoding: .utf8)
        var keys = text.components(separatedBy: "\n")
        if keys.last == "" { keys.removeLast() }
        decoder = CTCDecoder(keys: keys)
    }

    /// Reads `line` (8-bit RGB, text running left to right). Runs the model through `store` (and so through
    /// the inference limiter). Throws `InferenceError`, `ModelStoreError`.
    public func recognise(_ line: RGBImage, store: ModelStore) async throws -> RecognisedText {
        guard line.width > 0, line.height > 0 else { return .empty }
        let h = Self.height
        let scaled = min(Self.maxWidth, max(1, Int((Double(h) * Double(line.width) / Double(line.height)).rounded(.up))))
        let resized = bilinearResize(line, width: scaled, height: h)
        let tensorWidth = max(Self.minWidth, scaled)
        let tensor = packImageTensor(resized, order: .bgr, normalisation: .symmetric, tensorWidth: tensorWidth)
        let decoder = self.decoder
        return try await store.withModel(model) { handle in
            guard let input = handle.inputs.first?.name, let output = handle.outputs.first?.name else {
                throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "no input/output")
            }
            let path = model.url.lastPathComponent
            return try await handle.run([input: tensor], outputNames: [output]) { views in
                // Decoded in ONNX Runtime's buffer: a long line's [1,T,18385] probabilities are never copied.
                guard let probs = views[output], let values = probs.floats, probs.shape.count == 3 else {
                    throw InferenceError.signatureMismatch(model: path, reason: "expected [1,T,C] output")
                }
                guard probs.shape[2] == decoder.keys.count else {
                    throw InferenceError.signatureMismatch(model: path,
                        reason: "\(probs.shape[2]) output classes but \(decoder.keys.count) keys")
                }
                var text = decoder.decode(values, steps: probs.shape[1], classes: probs.shape[2])
                let centres = CTCAlignment.centres(values, steps: probs.shape[1], classes: probs.shape[2],
                                                   keyCount: decoder.keys.count, tensorWidth: tensorWidth, contentWidth: scaled)
                if centres.count == text.characters.count { text.characterCentres = centres }
                return text
            }
        }
    }
}
