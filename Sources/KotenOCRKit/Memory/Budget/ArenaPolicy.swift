/// When ONNX Runtime's CPU memory arena is used (`SessionOptions.arena`). Where it is on, it is shrunk after
/// every run.
///
/// Measured here (docs/performance.md): off for the page-sized detector run, whose activations dominate the peak
/// and must go back to the system as soon as they are freed; on for the many small recognition runs, where
/// allocating through the system for every tensor cost more kernel time than the inference itself.
public enum ArenaPolicy: Sendable, Hashable {
    /// `.recognitionOnly`, or `.never` when the engine runs under an explicit memory budget below the
    /// machine's memory (the arena of concurrent recognitions keeps tens of MB that a tight budget needs).
    case automatic
    /// Never: every tensor is allocated from and returned to the system (least memory, most kernel time).
    case never
    /// For classification and recognition runs; never for detection.
    case recognitionOnly
    /// For every model.
    case always

    /// The policy with `.automatic` resolved for a store given `explicitBudget` in bytes (nil: none was set).
    func resolved(explicitBudget: Int?) -> ArenaPolicy {
        guard self == .automatic else { return self }
        return MemoryBudget.isTight(explicit: explicitBudget) ? .never : .recognitionOnly
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
