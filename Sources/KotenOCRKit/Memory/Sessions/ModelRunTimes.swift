import Foundation

/// Time spent inside ONNX Runtime's `Run` in this process (issue 28's attribution; docs/performance.md, "Speed").
///
/// Two figures: each model's runs summed (seconds, count; concurrent runs each count in full), and the wall time
/// during which at least one run of any model was in flight (`busySeconds`, the union of the runs' intervals).
/// `wall − busySeconds` is what a run spends outside the models: start-up, decoding, crops, post-processing,
/// writing and waiting. Monotonic clock; counting costs two clock reads and a lock per run.
package enum ModelRunTimes {
    package struct Model: Sendable, Equatable {
        /// The model's file name (`PP-OCRv5_mobile_det.onnx`).
        package let name: String
        /// Seconds inside `Run`, summed over its runs.
        package var seconds: Double
        package var runs: Int
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var models: [String: Model] = [:]
    nonisolated(unsafe) private static var inFlight = 0
    nonisolated(unsafe) private static var busySince: UInt64 = 0
    nonisolated(unsafe) private static var busy: UInt64 = 0

    /// Marks a run started; returns its start (nanoseconds, monotonic) for `end`.
    static func begin() -> UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            if inFlight == 0 { busySince = now }
            inFlight += 1
        }
        return now
    }

    /// Marks the run of `model` that `begin` returned `start` for as ended (whether it succeeded or threw).
    static func end(_ model: String, start: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            inFlight -= 1
            if inFlight == 0 { busy += now - busySince }
            var entry = models[model] ?? Model(name: model, seconds: 0, runs: 0)
            entry.seconds += Double(now - start) / 1e9
            entry.runs += 1
            models[model] = entry
        }
    }

    /// Each model run so far, by name.
    package static var byModel: [Model] { lock.withLock { models.values.sorted { $0.name < $1.name } } }

    /// Seconds during which at least one model run was in flight (runs still in flight count up to now).
    package static var busySeconds: Double {
        lock.withLock {
            let open = inFlight > 0 ? DispatchTime.now().uptimeNanoseconds - busySince : 0
            return Double(busy + open) / 1e9
        }
    }

    /// The report `koten-ocr` writes to standard error with `KOTEN_OCR_REPORT_MODEL_RUNS=1`, one line a figure:
    /// `koten-ocr-runs: model NAME SECONDS RUNS` for each model, then `koten-ocr-runs: busy SECONDS`.
    /// Then `koten-ocr-runs: detector-buffers MAPS REUSES`: the detector's blocks mapped and served again
    /// (`DetectorBuffers`).
    package static func report() -> String {
        let buffers = DetectorBuffers.statistics()
        return byModel.map { "koten-ocr-runs: model \($0.name) \(String(format: "%.4f", $0.seconds)) \($0.runs)\n" }.joined()
            + "koten-ocr-runs: busy \(String(format: "%.4f", busySeconds))\n"
            + "koten-ocr-runs: detector-buffers \(buffers.maps) \(buffers.reuses)\n"
    }
}
