/// The three NDLOCR-Lite PARSeq models (maximum label length 30, 50, 100; input 24×256/384/768).
package enum CascadeModel: String, Sendable, Hashable, CaseIterable {
    case rec30, rec50, rec100
}

/// The NDLOCR-Lite recognition cascade (reference: docs/reference-pipelines.md §1.5 "Cascade";
/// parity README C1, C2; NDL `ocr.py` `process_cascade`).
package enum NDLCascade {
    /// Routes by PRED_CHAR_CNT (3 → rec30, 2 → rec50, else rec100), re-reads a rec30 result of
    /// ≥ 25 characters (Unicode scalars, as Python's `len`) with rec50 and a rec50 result of
    /// ≥ 45 with rec100, and splits a crop whose rec100 result has ≥ 98 characters and whose
    /// height < width at width // 2, reading both halves with rec100 and concatenating them.
    /// Calls run stage by stage in the reference's order (rec30 lines, rec50 lines then the
    /// escalated ones, rec100 likewise, then the halves), at most `maxConcurrentReads` at a time.
    /// An empty crop gives "" without a call.
    ///
    /// - Parameter reader: reads a crop (a non-empty rectangle inside the page image, xyxy pixels) with the
    ///   cascade model named: the pipeline's `LineReader` for that model on the page, or (parity tests) an
    ///   answer table; the reading is the decoded string (`String`) or the string with its per-character
    ///   probabilities (`RecognisedText`).
    /// - Returns: one reading per line, in line order (a split line's halves concatenated, their
    ///   per-character probabilities too).
    /// - Throws: whatever `reader` throws.
    public static func read<Reading: LineReading>(
        lines: [RecognitionLine], imageWidth: Int, imageHeight: Int, maxConcurrentReads: Int = 1,
        reader: @escaping @Sendable (CascadeModel, PixelBox) async throws -> Reading
    ) async throws -> [Reading] {
        try await read(lines: lines, imageWidth: imageWidth, imageHeight: imageHeight) { model, crops in
            try await boundedMap(crops, limit: maxConcurrentReads) { try await reader(model, $0) }
        }
    }

    /// The cascade as `read(lines:imageWidth:imageHeight:maxConcurrentReads:reader:)`, each step's crops handed
    /// to `readAll` at once (the non-empty ones, in the reference's order), so the pipeline's readers can run them in
    /// batches (`LineReader.read(_:store:limit:)`). `readAll` returns one reading per crop, in order.
    static func read<Reading: LineReading>(
        lines: [RecognitionLine], imageWidth: Int, imageHeight: Int,
        readAll: @escaping @Sendable (CascadeModel, [PixelBox]) async throws -> [Reading]
    ) async throws -> [Reading] {
        let crops = lines.map { LineCrop.clamped($0.box, imageWidth: imageWidth, imageHeight: imageHeight) }
        var results = [Reading](repeating: .empty, count: lines.count)
        func stage(_ model: CascadeModel, _ crops: [PixelBox]) async throws -> [Reading] {
            try await LineCrop.readNonEmpty(crops) { try await readAll(model, $0) }
        }
        var to50 = lines.indices.filter { lines[$0].charCountClass == 2 }
        var to100 = lines.indices.filter { lines[$0].charCountClass != 2 && lines[$0].charCountClass != 3 }
        let to30 = lines.indices.filter { lines[$0].charCountClass == 3 }
        for (i, s) in zip(to30, try await stage(.rec30, to30.map { crops[$0] })) {
            if s.scalarCount >= 25 { to50.append(i) } else { results[i] = s }
        }
        for (i, s) in zip(to50, try await stage(.rec50, to50.map { crops[$0] })) {
            if s.scalarCount >= 45 { to100.append(i) } else { results[i] = s }
        }
        var halves: [(line: Int, crop: PixelBox)] = []
        for (i, s) in zip(to100, try await stage(.rec100, to100.map { crops[$0] })) {
            let c = crops[i]
            guard s.scalarCount >= 98, c.height < c.width else {
                results[i] = s
                continue
            }
            let mid = c.x1 + c.width / 2
            halves.append((i, PixelBox(x1: c.x1, y1: c.y1, x2: mid, y2: c.y2)))
            halves.append((i, PixelBox(x1: mid, y1: c.y1, x2: c.x2, y2: c.y2)))
        }
        let halfTexts = try await stage(.rec100, halves.map(\.crop))
        for k in stride(from: 0, to: halves.count, by: 2) { results[halves[k].line] = halfTexts[k] + halfTexts[k + 1] }
        return results
    }
}
