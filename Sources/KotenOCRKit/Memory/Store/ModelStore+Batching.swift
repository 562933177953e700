import Foundation

/// How large a batched run may be (docs/performance.md, "Batched recognition"): the store sizes recognition and
/// classification batches from the budget and the model's measured activation bytes per input element, so a tight
/// budget gets small batches (down to one line) and a batch never sets the page's peak.
extension ModelStore {
    /// What one batched run of a model may take now.
    struct BatchAllowance: Sendable, Equatable {
        /// Input elements one run may hold (all its lines, padding included); at least one line's.
        let maxElements: Int
        /// Lines one run may hold (≥ 1).
        let maxLines: Int

        init(maxElements: Int, maxLines: Int) {
            self.maxElements = max(1, maxElements)
            self.maxLines = max(1, maxLines)
        }
    }

    /// The allowance for runs of `d` with `runs` of them in flight at once, each at most `maximumLines` lines.
    ///
    /// The activation bytes one run may take are the smaller of (a) the room left under the budget (budget − resident
    /// now − activations reserved by runs in flight − headroom) and (b) the room left under the mode's largest
    /// detection stage (runtime baseline + the detector's weights, activations at its typical input — measured, else
    /// estimated — and input tensors, − resident now − reserved), shared by the `runs` runs: recognition never raises
    /// the process above what its detection stage reaches, whatever stays resident beside it (the mode's bound,
    /// issue 15; a line wider than that runs alone, as a batch of one). Divided by `d`'s activation bytes per input
    /// element (measured on its first run, else `ModelDescriptor.activationBytesPerElement`).
    func batchAllowance(for d: ModelDescriptor, runs: Int, maximumLines: Int) -> BatchAllowance {
        let runs = max(1, runs)
        let resident = meter.residentBytes()
        let room = budgetBytes - resident - reservedActivationBytes - headroomBytes
        let belowCeiling = detectionCeiling(of: d.mode).map { $0 - resident - reservedActivationBytes } ?? Int.max
        let bytes = min(max(0, room), max(0, belowCeiling)) / runs
        let perElement = max(1, Double(activationEstimate(d, inputElements: d.typicalInputElements)) / Double(max(1, d.typicalInputElements)))
        return BatchAllowance(maxElements: Int(Double(bytes) / perElement), maxLines: maximumLines)
    }
}

extension ModelStore {
    /// The process at `mode`'s largest detection stage: runtime baseline + the detector's weights, its activations at
    /// its typical input (measured, else estimated) and its input tensors; nil for a mode without a detector. What the
    /// later stages of a page stay under: recognition batches are sized below it (`batchAllowance`), a recognition or
    /// classification run waits below it for the runs in flight (`admit`), and ppocr keeps its decoded page for the
    /// second look only when it fits below it (`fitsBelowDetection`).
    func detectionCeiling(of mode: OCRMode) -> Int? {
        registeredModels(of: mode).filter { $0.stage == .detection }.map {
            baselineBytes + residentEstimate($0) + activationEstimate($0, inputElements: $0.typicalInputElements) + $0.typicalInputElements * 4
        }.max()
    }

    /// What a page's later stages stay under: the higher of `detectionCeiling` and the process's high-water mark
    /// (`ProcessMemory.highWaterMarkBytes`; on Darwin resident now), i.e. what the detect stage reached once it has run,
    /// whatever else (the recognisers' weights) is resident beside them; nil for a mode without a detector.
    func recognitionCeiling(of mode: OCRMode) -> Int? {
        detectionCeiling(of: mode).map { max($0, ProcessMemory.highWaterMarkBytes()) }
    }

    /// Whether `bytes` more, held through `mode`'s recognition, fit below its `recognitionCeiling` beside what is
    /// resident and reserved now and `runs` recognition runs at the recogniser's typical input (true for a mode
    /// without a detector).
    package func fitsBelowDetection(_ bytes: Int, mode: OCRMode, runs: Int) -> Bool {
        guard let ceiling = recognitionCeiling(of: mode) else { return true }
        let run = registeredModels(of: mode).filter { $0.stage == .recognition }
            .map { activationEstimate($0, inputElements: $0.typicalInputElements) }.max() ?? 0
        return meter.residentBytes() + reservedActivationBytes + max(1, runs) * run + bytes <= ceiling
    }

    /// Whether a classification or recognition run waits below the detection ceiling (`admit`); off with
    /// `KOTEN_OCR_RECOGNITION_CEILING=0`, for benchmarks (docs/diagnostics.md).
    static let runsWaitBelowDetection = ProcessInfo.processInfo.environment["KOTEN_OCR_RECOGNITION_CEILING"] != "0"
}

/// Lines grouped into batched runs: sorted by tensor width, then cut into consecutive groups of one tensor width
/// that fit the allowance — at most `maxLines` lines and `maxElements` input elements (a line wider than the
/// allowance runs alone). A line is never padded wider in a batch than alone, so it reads the same in any batch:
/// how many lines a run takes (which the store sizes from memory) never changes a reading, and a page reads the same
/// under any budget, cancelled and resumed or not.
enum LineBatches {
    /// Indices into `widths` (each line's tensor width: its input width scaled to the model's height and padded as
    /// when it runs alone; nil: the line is not run), grouped: lines of one width per group, groups in ascending
    /// width, a group's lines in their order. `elementsPerColumn` = input elements per column of one line (channels
    /// × height).
    static func partition(widths: [Int?], elementsPerColumn: Int, allowance: ModelStore.BatchAllowance) -> [[Int]] {
        let order = widths.indices.compactMap { i in widths[i].map { (i, $0) } }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        var groups: [[Int]] = []
        var current: [Int] = []
        var currentWidth = 0
        for (i, width) in order {
            let elements = (current.count + 1) * width * elementsPerColumn
            if !current.isEmpty && (width != currentWidth || current.count + 1 > allowance.maxLines || elements > allowance.maxElements) {
                groups.append(current)
                current = []
            }
            current.append(i)
            currentWidth = width
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// Runs `body` on every group (its lines' indices, and whether it is the last group: the run that hands the
    /// arena back), at most `limit` at a time, and puts each group's answers at its lines' indices among `count`
    /// lines; a line in no group gets `missing`. Throws what `body` throws.
    static func run<R: Sendable>(_ groups: [[Int]], count: Int, missing: R, limit: Int,
                                 _ body: @escaping @Sendable (_ group: [Int], _ isLast: Bool) async throws -> [R]) async throws -> [R] {
        let answers = try await boundedMap(Array(groups.enumerated()), limit: limit) { number, group in
            try await body(group, number == groups.count - 1)
        }
        var results = [R](repeating: missing, count: count)
        for (group, answer) in zip(groups, answers) {
            for (i, r) in zip(group, answer) { results[i] = r }
        }
        return results
    }
}
