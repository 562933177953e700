import Foundation

/// PP-OCRv5 mobile's CTC line recogniser (docs/reference-pipelines.md §4, "Step 4").
///
/// Input `x` float32 [N,3,48,W]: each line resized to height 48 keeping its aspect ratio (bilinear), BGR,
/// x/127.5 − 1, padded on the right with zeros to W = `tensorWidth` (the line's own width, at least 320). Output
/// [N,T,18385] softmax, each line's [T,18385] decoded by `CTCDecoder` over `ppocr_keys_v5.txt` (line k = class k;
/// line 0 is the blank). Lines of one tensor width run in batches (at most `maxBatchLines` a run, as PaddleOCR
/// batches) as large as the store allows (`ModelStore.batchAllowance`). PaddleOCR pads a batch to its widest line,
/// which makes a line's reading depend on its neighbours: here a line is padded the same alone or in any batch, so
/// batch sizes chosen from memory never change a reading.
package struct PPOCRRecogniser: Sendable {
    public let model: ModelDescriptor
    public let decoder: CTCDecoder
    static let height = 48
    static let minWidth = 320
    /// Lines wider than this (after scaling to height 48) are squeezed to it, bounding one run's memory.
    static let maxWidth = 3200
    /// The most lines in one run (PaddleOCR's `rec_batch_num`); the store may allow fewer.
    static let maxBatchLines = 6

    /// Loads the keys file (one entry per line; split by lines, not characters: some entries are astral).
    /// Throws if the file cannot be read.
    public init(model: ModelDescriptor, keysFile: URL) throws {
        self.model = model
        let text = try String(contentsOf: keysFile, encoding: .utf8)
        var keys = text.components(separatedBy: "\n")
        if keys.last == "" { keys.removeLast() }
        decoder = CTCDecoder(keys: keys)
    }

    /// The width of `line`'s input: scaled to height 48 keeping its aspect ratio, at most `maxWidth`.
    static func inputWidth(_ line: RGBImage) -> Int {
        min(maxWidth, max(1, Int((Double(height) * Double(line.width) / Double(line.height)).rounded(.up))))
    }

    /// The tensor width a line of input width `width` is padded to, alone or in a batch: `minWidth` for narrower
    /// lines, else its own width. (Rounding widths up to coarser steps would batch more long lines, but a few
    /// more columns of zeros change some readings of short, small lines.)
    static func tensorWidth(_ width: Int) -> Int { max(minWidth, width) }

    /// Reads `line` (8-bit RGB, text running left to right). Runs the model through `store` (and so through
    /// the inference limiter). Throws `InferenceError`, `ModelStoreError`.
    public func recognise(_ line: RGBImage, store: ModelStore) async throws -> RecognisedText {
        try await recognise([line], store: store, limit: 1)[0]
    }

    /// Reads `lines` in batched runs, at most `limit` in flight; one reading per line, in order (an empty line
    /// reads as empty without a run); each batch's lines count for the page's `LineProgress` when its run ends.
    /// Throws `InferenceError`, `ModelStoreError`.
    func recognise(_ lines: [RGBImage], store: ModelStore, limit: Int) async throws -> [RecognisedText] {
        let widths = lines.map { $0.width > 0 && $0.height > 0 ? Self.inputWidth($0) : nil }
        let allowance = await store.batchAllowance(for: model, runs: limit, maximumLines: Self.maxBatchLines)
        let groups = LineBatches.partition(widths: widths.map { $0.map(Self.tensorWidth) }, elementsPerColumn: 3 * Self.height,
                                           allowance: allowance)
        let model = self.model, decoder = self.decoder
        return try await LineBatches.run(groups, count: lines.count, missing: .empty, limit: limit) { group, isLast in
            let images = group.map { i in bilinearResize(lines[i], width: widths[i] ?? 1, height: Self.height) }
            let tensorWidth = Self.tensorWidth(images.map(\.width).max() ?? 0)
            let tensor = packImageTensor(images, order: .bgr, normalisation: .symmetric, tensorWidth: tensorWidth)
            let contentWidths = images.map(\.width)
            let readings = try await store.withModel(model) { handle in
                guard let input = handle.inputs.first?.name, let output = handle.outputs.first?.name else {
                    throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "no input/output")
                }
                let path = model.url.lastPathComponent, count = images.count
                return try await handle.run([input: tensor], outputNames: [output], releaseArena: isLast) { views in
                    // Decoded in ONNX Runtime's buffer: a batch's [N,T,18385] probabilities are never copied.
                    guard let probs = views[output], let values = probs.floats, probs.shape.count == 3, probs.shape[0] == count else {
                        throw InferenceError.signatureMismatch(model: path, reason: "expected [N,T,C] output")
                    }
                    let steps = probs.shape[1], classes = probs.shape[2]
                    guard classes == decoder.keys.count else {
                        throw InferenceError.signatureMismatch(model: path, reason: "\(classes) output classes but \(decoder.keys.count) keys")
                    }
                    return (0..<count).map { k in
                        let line = UnsafeBufferPointer(rebasing: values[(k * steps * classes)..<((k + 1) * steps * classes)])
                        let top = CTCSteps(line, steps: steps, classes: classes)  // each step's two best, found once
                        var text = decoder.decode(top, line, classes: classes)
                        // Where each character sits along the line (its CTC run's centre, in input pixels).
                        let centres = CTCAlignment.centres(top.best, keyCount: decoder.keys.count,
                                                           tensorWidth: tensorWidth, contentWidth: contentWidths[k])
                        if centres.count == text.characters.count { text.characterCentres = centres }
                        return text
                    }
                }
            }
            LineProgress.linesRead(readings.count)
            return readings
        }
    }
}
