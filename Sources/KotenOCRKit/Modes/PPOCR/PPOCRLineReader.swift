import Foundation

/// PP-OCRv5's line reading stage: the orientation classifier (optional: a line it finds upside down is
/// turned 180°), then the CTC recogniser. The `ppocr` pipeline hands it each line already cut from the page
/// and turned upright, the crop covering the whole line image; another crop is cut from `page` first.
/// Reference: docs/reference-pipelines.md §4, "Step 3", "Step 4".
package struct PPOCRLineReader: LineReader {
    public let classifier: OrientationClassifier?
    public let recogniser: PPOCRRecogniser
    /// The recogniser's keys file (named when its entries do not match the model's output classes).
    public let keysFile: URL

    /// Reads the keys file. Throws if it cannot be read.
    public init(files: PPOCRModelFiles, useOrientationClassifier: Bool = true) throws {
        classifier = useOrientationClassifier ? OrientationClassifier(model: files.classifier) : nil
        recogniser = try PPOCRRecogniser(model: files.recogniser, keysFile: files.keys)
        keysFile = files.keys
    }

    public var models: [ModelDescriptor] { [recogniser.model] + (classifier.map { [$0.model] } ?? []) }

    public func read(_ crop: PixelBox, of page: RGBImage, store: ModelStore) async throws -> RecognisedText {
        try await read([LineRegion(crop, of: page)], store: store, limit: 1)[0]
    }

    /// Classifies every line's orientation in batched runs (turning those upside down), then recognises them in
    /// batched runs sorted by width; at most `limit` runs in flight.
    public func read(_ lines: [LineRegion], store: ModelStore, limit: Int) async throws -> [RecognisedText] {
        var images = lines.map(\.image)
        if let classifier {
            let flips = try await classifier.upsideDown(images, store: store, limit: limit)
            for i in images.indices where flips[i] { images[i] = images[i].rotated180() }
        }
        return try await recogniser.recognise(images, store: store, limit: limit)
    }
}
