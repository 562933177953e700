/// When ONNX Runtime's CPU memory arena is used (`SessionOptions.arena`). Where it is on, a stage's last run hands
/// it back, and every run does while memory is tight (`MemoryTightness`: a tight budget, or pressure).
///
/// Measured here (docs/performance.md, "System time"): off for the page-sized detector run, whose activations
/// dominate the peak and must go back to the system as soon as they are freed; on for the many small recognition
/// runs, where allocating through the system for every tensor cost more kernel time than the inference itself —
/// with batched runs, 28 s instead of 10 s of recognition for a 12 MP photo's 65 lines (two runs in flight, both
/// cores faulting pages in and out) — so a tight budget keeps the arena and hands it back after each run instead.
package enum ArenaPolicy: Sendable, Hashable {
    /// `.recognitionOnly` (under a tight budget too: its runs hand the arena back, `MemoryTightness`).
    case automatic
    /// Never: every tensor is allocated from and returned to the system (least memory, most kernel time).
    case never
    /// For classification and recognition runs; never for detection.
    case recognitionOnly
    /// For every model.
    case always

    /// The policy with `.automatic` resolved.
    func resolved() -> ArenaPolicy {
        self == .automatic ? .recognitionOnly : self
    }

    /// Whether a model of `stage` runs with the CPU arena.
    func usesArena(for stage: ModelStage) -> Bool {
        switch self {
        case .never: return false
        case .always: return true
        case .recognitionOnly, .automatic: return stage != .detection
        }
    }
}
