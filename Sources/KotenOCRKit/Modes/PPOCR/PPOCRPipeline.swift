import Foundation

/// The `ppocr` mode: PP-OCRv5 mobile (docs/reference-pipelines.md §4).
///
/// decode (reduced, for the detector) → detect (DB) → crop (perspective, at source resolution) → page orientation
/// (`PPOCRPageOrientation`: the lines' shapes and the orientation classifier's votes) → each line turned upright
/// and recognised (CTC; vertical lines' 、, 。 and ー, which the recogniser passes over, found in their pixels:
/// `VerticalPunctuation`) → line filter (a box read as empty is no line; one under `minLineConfidence` is flagged
/// `lowConfidence`) → reading order (`PageOrderer`, by default `PageFrameOrder`: deskewed XY-cut, ruby; the flagged
/// lines ordered apart, after the others). A page found turned is read
/// a second time turned upright (decoded, turned in memory, detected again); a page given turned
/// (`OCRConfiguration.pageRotation`) is turned before the first. The detector's input and activations are gone
/// before the full-resolution page is decoded for crops; under a tight budget the page is released before recognition
/// starts, otherwise it is kept for the second look's crops until they are cut.
package struct PPOCRPipeline: ModePipeline {
    public let mode = OCRMode.ppocr
    public let files: PPOCRModelFiles
    /// Finds the lines (`DBDetector` unless the configuration supplies another).
    public let detector: any PageDetector<Detection>
    /// Reads each line, cut and turned upright (`PPOCRLineReader`'s CTC recogniser, unless the configuration
    /// supplies another).
    public let reader: any LineReader<RecognisedText>
    /// The line-orientation classifier that votes on the page's orientation and settles lines across the main
    /// ones; nil when turned off or when the configuration supplies the reader (which then stands for both).
    public let classifier: OrientationClassifier?
    /// Puts the lines in reading order (`PageFrameOrder` in the `readingOrder` style unless the configuration
    /// supplies another).
    public let orderer: any PageOrderer
    /// How the pages are turned: nil to tell from each page (default).
    public let pageRotation: PageRotation?
    /// Lines read with a lower confidence are flagged `lowConfidence` (kept in the JSON, not in the text).
    public let minLineConfidence: Float
    /// Whether lines read unsure are cut again with a margin and read again (`SecondLook`): when asked, and with
    /// the default reader only (a supplied reader is asked once per line).
    let secondLook: Bool
    /// Whether the 、, 。 and ー of vertical lines, which the recogniser passes over, are looked for in the lines' pixels
    /// (`VerticalPunctuation`).
    let verticalPunctuation: Bool

    /// Reads the keys file (unless `stages` supplies the reader). Throws if it cannot be read,
    /// `StageError.mismatch` for a supplied detector that does not find `Detection`s.
    /// `detectorMaxSide`: nil fits the detector's scale to each page (`DetectorScale`), a side reads each page
    /// once at that size.
    public init(files: PPOCRModelFiles, detectorMaxSide: Int? = nil, useOrientationClassifier: Bool = true,
                minLineConfidence: Float = 0.5, secondLook: Bool = true, verticalPunctuation: Bool = true,
                readingOrder: OCRConfiguration.ReadingOrderStyle = .page, pageRotation: PageRotation? = nil, stages: StageOverrides = StageOverrides()) throws {
        self.files = files
        self.minLineConfidence = minLineConfidence
        detector = try stages.detector(finding: Detection.self, mode: .ppocr) ?? DBDetector(model: files.detector, maxSide: detectorMaxSide)
        reader = try stages.reader ?? PPOCRLineReader(files: files, useOrientationClassifier: false)
        classifier = stages.reader == nil && useOrientationClassifier ? OrientationClassifier(model: files.classifier) : nil
        orderer = stages.orderer ?? PageFrameOrder(style: readingOrder)
        self.secondLook = secondLook && stages.reader == nil
        self.verticalPunctuation = verticalPunctuation
        self.pageRotation = pageRotation
    }

    public var models: [ModelDescriptor] { detector.models + reader.models + (classifier.map { [$0.model] } ?? []) }

    /// Loads the stages' models and checks them (detector, then classifier and recogniser: the shapes, and
    /// the recogniser's output classes against the keys). Throws `ModelError.invalidFile` naming the file and
    /// what is wrong.
    public func prepare(store: ModelStore) async throws {
        try await detector.prepare(store: store)
        if let classifier { try await classifier.prepare(store: store) }
        try await reader.prepare(store: store)
    }

    /// Reads `page`. A page found turned (or given turned, `pageRotation`) is read again turned upright: detected,
    /// cut and read as an upright page would be, its lines' coordinates those of the upright page.
    public func read(_ page: ImageSource, store: ModelStore, limit: Int) async throws -> PageResult {
        var rotation = pageRotation ?? .upright
        var pass = try await readLines(page.turnedUpright(from: rotation), known: pageRotation == nil ? .none : .upright,
                                       store: store, limit: limit)
        var evidence = pass.evidence
        if pageRotation == nil, pass.orientation.rotation != .upright {
            let turned = try await readLines(page.turnedUpright(from: pass.orientation.rotation),
                                             known: .writing(vertical: pass.orientation.vertical), store: store, limit: limit)
            // The page read turned must read at least what its upright sample lines read confidently; else it is read
            // upright (a page that reads text upright never comes back emptied by a turn).
            let upright = pass.orientation.uprightSample(evidence)?.confident ?? 0
            if Self.confidentCharacters(turned.lines) < upright {
                pass = try await readLines(page, known: .upright, store: store, limit: limit)
                evidence?.turnUndone = true
            } else {
                rotation = pass.orientation.rotation
                pass = turned
            }
        }
        let orderer = self.orderer
        let text = pass.lines.filter { !$0.lowConfidence }, junk = pass.lines.filter(\.lowConfidence)
        // The page's numbers (ノンブル) come at the end of its text, after the body, whose order they do not shape.
        let numbered = Set(PageNumbers.find(text.map { ($0.line.quad, $0.line.text.text) }))
        let kept = text.indices.filter { !numbered.contains($0) }.map { text[$0] }
        let numbers = numbered.sorted().map { text[$0] }.sorted { a, b in
            (a.line.quad.bounds.y0, a.line.quad.bounds.x0) < (b.line.quad.bounds.y0, b.line.quad.bounds.x0)
        }
        // Junk never shapes the order of the text: the flagged lines are ordered apart (they annotate nothing).
        let (ordering, junkOrdering) = PipelineStage.order.measure {
            (orderer.order(kept.map(\.line)), junk.isEmpty ? PageOrder.Ordering(order: []) : orderer.order(junk.map(\.line)))
        }
        let lines = PageResult.TextLine.ordered(kept, ordering)
        let pageNumbers = PageResult.TextLine.ordered(numbers, PageOrder.Ordering(order: Array(numbers.indices)), first: lines.count,
                                                      ruby: false).map { line in
            var line = line
            line.kind = PageResult.TextLine.pageNumberKind
            return line
        }
        let flagged = PageResult.TextLine.ordered(junk, junkOrdering, first: lines.count + pageNumbers.count, ruby: false)
        let style = (orderer as? PageFrameOrder)?.style
        var result = PageResult(source: page, mode: mode, models: models, lines: lines + pageNumbers + flagged,
                                rotation: rotation, skew: ordering.skew, style: style)
        result.detector = pass.detector
        result.rotationEvidence = evidence
        return result
    }

    /// `KOTEN_OCR_KEEP_PAGE=1` keeps the decoded page for the second look whenever the budget is not tight, `0` never
    /// (for benchmarks, docs/diagnostics.md); nil when unset.
    static let keepsPageOverride: Bool? = ProcessInfo.processInfo.environment["KOTEN_OCR_KEEP_PAGE"].map { $0 != "0" }

    /// Characters read at `RotationEvidence.confidentAt` or more in the lines not flagged `lowConfidence`.
    static func confidentCharacters(_ lines: [PPOCRReadLine]) -> Int {
        lines.filter { !$0.lowConfidence }.reduce(0) { n, l in
            n + l.line.text.characters.filter { $0.confidence >= PageResult.RotationEvidence.confidentAt }.count
        }
    }

    /// Detects, cuts and reads the lines of `page` (`PPOCRLineTurning`, told what is `known` of its orientation).
    /// Lines whose text is empty are dropped; those under `minLineConfidence` flagged.
    private func readLines(_ page: ImageSource, known: PPOCRLineTurning.Known, store: ModelStore, limit: Int) async throws
        -> (orientation: PPOCRPageOrientation, lines: [PPOCRReadLine], detector: PageResult.DetectorSummary?,
            evidence: PageResult.RotationEvidence?) {
        let detector = self.detector
        // The detect stage's end returns the detector's activations to the system (`StageBoundary`).
        var detected = try await PipelineStage.detect.measure { try await detector.detect(page, store: store) }
        // The crops and the second look's are cut from the page as the detector read it (cleaned of salt and pepper).
        let page = detected.source ?? page
        let detections = detected.detections.map { d in Detection(quad: Self.cornersFromTopLeft(d.quad), score: d.score) }
        // Crops at source resolution. The full page is kept for the second look's crops (which then decode nothing
        // again, docs/performance.md "The second look's decode") only while the budget is not tight and it fits below
        // the detect stage's peak beside `limit` recognition runs (`ModelStore.fitsBelowDetection`: a 12 MP photo's
        // 37 MB do not, a scan's few MB do); else the full page exists only while they are cut, so the decode stage's
        // end returns it to the system before recognition and only the line crops remain.
        var crops: [RGBImage]
        var decoded: RGBImage?
        let pageFits = await store.fitsBelowDetection(page.width * page.height * 3, mode: mode, runs: limit)
        let keepsPage = secondLook && !MemoryTightness.isTight && (Self.keepsPageOverride ?? pageFits)
        if detections.isEmpty {
            crops = []
            detected.page = nil
        } else {
            try Task.checkCancellation()  // a cancelled page decodes nothing more
            crops = try PipelineStage.decode.measure {
                let image = try detected.page ?? page.decode()
                detected.page = nil
                if keepsPage { decoded = image }
                // On every usable CPU: the crops are independent, and nothing else runs in this page meanwhile.
                let cut = try parallelMap(detections, threads: UsableCPUs.count) { d in perspectiveCrop(image, quad: d.quad) }
                try Task.checkCancellation()
                return cut
            }
        }
        LineProgress.found(crops.count)
        let turning = PPOCRLineTurning(classifier: classifier, reader: reader, store: store, limit: limit)
        let recognised = try await PipelineStage.recognise.measure {
            let (orientation, read, evidence) = try await turning.read(crops, known: known)
            var readings = read
            let lines = readings.indices.map { i in
                i < crops.count && Self.readsVertically(readings[i]) ? crops[i].turnedCounterClockwise(quarterTurns: 1) : nil
            }
            let texts = try await restoreVertical(readings.map(\.text), lines: lines, store: store, limit: limit)
            for i in readings.indices { readings[i].text = texts[i] }
            return (orientation: orientation, readings: readings, evidence: evidence)
        }
        var readings = recognised.readings
        crops = []  // read: gone before the second look cuts its own
        if secondLook {
            readings = try await lookAgain(readings, detections: detections, page: page, decoded: &decoded, store: store, limit: limit)
        }
        let minConfidence = minLineConfidence
        let lines = zip(detections, readings).compactMap { d, r -> PPOCRReadLine? in
            let axis = PPOCRLineTurning.readingAxis(of: d.quad, quarterTurns: r.quarterTurns)
            return PPOCRReadLine(line: PageOrder.Line(quad: d.quad, start: axis.start, end: axis.end, text: r.text),
                                 orientation: LineOrientation(width: Double(r.cropWidth), height: Double(r.cropHeight)),
                                 score: d.score, minConfidence: minConfidence)
        }
        return (recognised.orientation, lines, detected.summary, recognised.evidence)
    }

    /// `readings` with the lines read unsure read again from crops with a margin (`SecondLook`), the more
    /// confident reading of each kept. The crops are cut from `decoded` (the page as decoded for the first crops)
    /// when it was kept, else from the page decoded again strip by strip (`SecondLook.crops`): the same pixels.
    /// `decoded` is gone (nil) before they are read.
    private func lookAgain(_ readings: [PPOCRLineTurning.Reading], detections: [Detection], page: ImageSource,
                           decoded: inout RGBImage?, store: ModelStore, limit: Int) async throws -> [PPOCRLineTurning.Reading] {
        defer { decoded = nil }
        let again = SecondLook.lines(readings.map(\.text), minConfidence: minLineConfidence)
        guard !again.isEmpty, readings.count == detections.count else { return readings }
        let vertical = again.map { readings[$0].quarterTurns % 2 != 0 }
        let grown = zip(again, vertical).map { i, v in SecondLook.grown(detections[i].quad, vertical: v) }
        try Task.checkCancellation()
        let crops = try PipelineStage.decode.measure {
            let cut = try SecondLook.crops(of: grown.map(\.quad), from: page, decoded: decoded, threads: UsableCPUs.count)
            decoded = nil
            return zip(again, cut).map { i, crop in crop.turnedCounterClockwise(quarterTurns: readings[i].quarterTurns) }
        }
        let reader = self.reader
        let texts = try await PipelineStage.recognise.measure {
            try await reader.read(crops.map { LineRegion(wholeOf: $0) }, store: store, limit: limit)
        }
        let restored = try await PipelineStage.recognise.measure {
            try await restoreVertical(texts, lines: again.indices.map { k in Self.readsVertically(readings[again[k]]) ? crops[k] : nil },
                                      store: store, limit: limit)
        }
        var result = readings
        for (k, i) in again.enumerated() where k < restored.count {
            let quad = detections[i].quad
            result[i].text = SecondLook.better(readings[i].text, restored[k], margin: grown[k].along,
                                               length: vertical[k] ? quad.edgeHeight : quad.edgeWidth)
        }
        return result
    }

    /// `texts` with the small kana and marks of the vertical lines found in their pixels (`lines[k]`: the crop text
    /// k was read from, turned as read; nil for a line not read vertically): `SmallKana` first (its windows of all
    /// the lines read at once: a small kana left out is never taken for a mark), then `VerticalPunctuation` in the
    /// gaps left. `texts` as they are when turned off.
    private func restoreVertical(_ texts: [RecognisedText], lines: [RGBImage?], store: ModelStore, limit: Int) async throws
        -> [RecognisedText] {
        guard verticalPunctuation else { return texts }
        var restored = texts
        var windows: [(line: Int, window: SmallKana.Window)] = []
        for k in texts.indices where k < lines.count {
            // One measure of the line's ink for both (the strip, its ink mask and regions: the re-forming changes
            // characters' text only, never their centres).
            guard let line = lines[k], let ink = SmallKana.LineInk(restored[k], line: line) else { continue }
            restored[k] = SmallKanaReform.reform(restored[k], ink: ink)
            windows += SmallKana.windows(restored[k], ink: ink).map { (k, $0) }
        }
        let read = windows.isEmpty ? [] : try await reader.read(windows.map { LineRegion(wholeOf: $0.window.image) }, store: store, limit: limit)
        for k in texts.indices where k < lines.count {
            guard let line = lines[k] else { continue }
            let mine = windows.indices.filter { windows[$0].line == k && $0 < read.count }
            restored[k] = SmallKana.merge(restored[k], windows: mine.map { windows[$0].window }, readings: mine.map { read[$0] })
            // The marks after the kana: a gap a small kana filled is no longer one.
            restored[k] = VerticalPunctuation.restore(restored[k], line: line)
        }
        return restored
    }

    /// Whether `reading` is of vertical writing read as PP-OCR reads it: its crop turned a quarter counter-clockwise
    /// (text running down the page; `VerticalPunctuation` looks for its marks).
    static func readsVertically(_ reading: PPOCRLineTurning.Reading) -> Bool { (reading.quarterTurns % 4 + 4) % 4 == 1 }

    /// `quad`'s corners clockwise on screen, starting at the corner whose edge to the next one points most nearly
    /// to the right (within 45°): for a skewed line, its top-left whatever the skew, so its crop is cut with the
    /// text's own width and height (a tall column stays tall). Leaves a detector's quad that is already so
    /// unchanged.
    static func cornersFromTopLeft(_ quad: Quad) -> Quad {
        var p = quad.points
        let twiceArea = (0..<4).reduce(0.0) { s, i in s + p[i].x * p[(i + 1) % 4].y - p[(i + 1) % 4].x * p[i].y }
        if twiceArea < 0 { p.reverse() }
        let start = (0..<4).first { i in
            let dx = p[(i + 1) % 4].x - p[i].x, dy = p[(i + 1) % 4].y - p[i].y
            return dx > 0 && abs(dy) <= dx && !(dy == -dx)
        } ?? 0
        return Quad(p[start], p[(start + 1) % 4], p[(start + 2) % 4], p[(start + 3) % 4])
    }
}
