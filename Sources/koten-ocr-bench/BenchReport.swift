import Foundation
import KotenOCRKit

/// What a child case reports: one JSON object on its last stdout line.
struct BenchReport: Codable {
    var name: String
    /// The child's peak resident memory (Linux VmHWM), bytes.
    var peakBytes: Int
    /// Resident bytes after start-up (runtime, libraries, ONNX Runtime environment), before the measured work.
    var baselineBytes: Int
    var seconds: Double
    /// Measured resident bytes of each loaded model (ModelStore `.loaded` events), by model id.
    var modelBytes: [String: Int] = [:]
    /// File size of each loaded model, by model id.
    var modelFileBytes: [String: Int] = [:]
    /// Largest measured activation peak of each model, by model id.
    var activationBytes: [String: Int] = [:]
    /// Free-form facts of the case (e.g. lines, runs in flight, bytes freed).
    var facts: [String: Double] = [:]
    var notes: [String] = []
    /// The page's outermost stages with their memory (`--stages`).
    var stages: [StageRecorder.Stage] = []

    static func emit(_ r: BenchReport) throws {
        let data = try JSONEncoder().encode(r)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    mutating func absorb(_ events: [ModelStoreEvent]) {
        for e in events {
            switch e {
            case .loaded(let m, let r, let f, _):
                modelBytes[m] = r
                modelFileBytes[m] = f
            case .activationMeasured(let m, _, let b):
                activationBytes[m] = max(activationBytes[m] ?? 0, b)
            default: break
            }
        }
    }
}

func mb(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1e6) }
func mb(_ bytes: Double) -> String { String(format: "%.0f MB", bytes / 1e6) }
