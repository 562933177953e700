/// Reads a koten line crop (a non-empty rectangle inside the page image, xyxy pixels): the decoded
/// string (`String`), or the string with its per-character probabilities (`RecognisedText`,
/// `KotenLineRecogniser`).
public protocol LineRecogniser<Reading>: Sendable {
    associatedtype Reading: LineReading = String
    func read(crop: PixelBox) async throws -> Reading
}

/// NDL Koten OCR-Lite recognition: one PARSeq read per line, no cascade.
public enum KotenRecognition {
    /// One reading per line, in line order. Crops are `LineCrop.clamped`; an empty crop gives ""
    /// without a call (the reference feeds Pillow an empty image, which reads as "").
    public static func read<R: LineRecogniser>(lines: [RecognitionLine], imageWidth: Int, imageHeight: Int,
                                               recogniser: R, maxConcurrentReads: Int = 1) async throws -> [R.Reading] {
        let crops = lines.map { LineCrop.clamped($0.box, imageWidth: imageWidth, imageHeight: imageHeight) }
        return try await boundedMap(crops, limit: maxConcurrentReads) { crop in
            LineCrop.isEmpty(crop) ? .empty : try await recogniser.read(crop: crop)
        }
    }
}
