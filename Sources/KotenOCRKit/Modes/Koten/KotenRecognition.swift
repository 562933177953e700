/// NDL Koten OCR-Lite recognition: one PARSeq read per line, no cascade.
package enum KotenRecognition {
    /// One reading per line, in line order. Crops are `LineCrop.clamped`; an empty crop gives ""
    /// without a call (the reference feeds Pillow an empty image, which reads as "").
    ///
    /// - Parameter reader: reads a crop (a non-empty rectangle inside the page image, xyxy pixels): the
    ///   pipeline's `LineReader` on the page, or (parity tests) an answer table; the reading is the decoded
    ///   string (`String`) or the string with its per-character probabilities (`RecognisedText`).
    /// - Throws: whatever `reader` throws.
    public static func read<Reading: LineReading>(
        lines: [RecognitionLine], imageWidth: Int, imageHeight: Int, maxConcurrentReads: Int = 1,
        reader: @escaping @Sendable (PixelBox) async throws -> Reading
    ) async throws -> [Reading] {
        try await read(lines: lines, imageWidth: imageWidth, imageHeight: imageHeight) { crops in
            try await boundedMap(crops, limit: maxConcurrentReads) { try await reader($0) }
        }
    }

    /// The same, the non-empty crops handed to `readAll` at once (in line order), so the pipeline's reader can run
    /// them in batches (`LineReader.read(_:store:limit:)`). `readAll` returns one reading per crop, in order.
    static func read<Reading: LineReading>(lines: [RecognitionLine], imageWidth: Int, imageHeight: Int,
                                           readAll: ([PixelBox]) async throws -> [Reading]) async throws -> [Reading] {
        let crops = lines.map { LineCrop.clamped($0.box, imageWidth: imageWidth, imageHeight: imageHeight) }
        return try await LineCrop.readNonEmpty(crops, readAll)
    }
}
