/// Reads a koten line crop (a non-empty rectangle inside the page image, xyxy pixels).
public protocol LineRecogniser: Sendable {
    func read(crop: PixelBox) async throws -> String
}

/// NDL Koten OCR-Lite recognition: one PARSeq read per line, no cascade.
public enum KotenRecognition {
    /// One string per line, in line order. Crops are `LineCrop.clamped`; an empty crop gives ""
    /// without a call (the reference feeds Pillow an empty image, which reads as "").
    public static func read(lines: [RecognitionLine], imageWidth: Int, imageHeight: Int,
                            recogniser: some LineRecogniser, maxConcurrentReads: Int = 1) async throws -> [String] {
        let crops = lines.map { LineCrop.clamped($0.box, imageWidth: imageWidth, imageHeight: imageHeight) }
        return try await boundedMap(crops, limit: maxConcurrentReads) { crop in
            LineCrop.isEmpty(crop) ? "" : try await recogniser.read(crop: crop)
        }
    }
}
