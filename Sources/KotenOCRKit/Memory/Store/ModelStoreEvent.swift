/// What the model store did, with the bytes involved. Observe with `ModelStore.events()`.
public enum ModelStoreEvent: Sendable, Equatable, CustomStringConvertible {
    /// A session was created: its measured resident cost (RSS delta) and load time.
    case loaded(model: String, residentBytes: Int, fileBytes: Int, seconds: Double)
    /// A session was released to make room for another under the budget.
    case evicted(model: String, residentBytes: Int, forModel: String)
    /// A session was released on request or on memory pressure.
    case released(model: String, residentBytes: Int, reason: String)
    /// A run's activation peak was measured (bytes above the resident level before the run).
    case activationMeasured(model: String, inputElements: Int, bytes: Int)

    public var description: String {
        switch self {
        case .loaded(let m, let r, let f, let s):
            return "loaded \(m): \(formatBytes(r)) resident (file \(formatBytes(f))) in \(String(format: "%.2f", s)) s"
        case .evicted(let m, let r, let other): return "evicted \(m) (\(formatBytes(r))) to load \(other)"
        case .released(let m, let r, let why): return "released \(m) (\(formatBytes(r))): \(why)"
        case .activationMeasured(let m, let n, let b):
            return "measured \(m): \(formatBytes(b)) activations for \(n) input elements"
        }
    }
}

/// Why the store refused to load a model.
public enum ModelStoreError: Error, Equatable, CustomStringConvertible {
    /// The budget is below the mode's floor (`ModelStore.ModeFloor`: baseline + its largest stage + headroom): nothing loads.
    case belowFloor(ModelStore.ModeFloor, budgetBytes: Int)
    /// What is resident now, the next model's weights or activations and the headroom need more than the budget,
    /// even after every idle model that may go went and free memory was returned (the floor itself fits).
    case budgetTooSmall(mode: OCRMode, neededBytes: Int, budgetBytes: Int)
    /// A model file is missing.
    case missingModel(path: String)

    public var description: String {
        switch self {
        case .belowFloor(let floor, let budget):
            // The floor and what to do first, the floor's parts after (issue 25: the line is long).
            return "mode \(floor.mode) needs a memory budget of at least \(formatBytes(floor.bytes)) (its floor), "
                + "not \(formatBytes(budget)): raise --memory-budget to at least \(formatBytes(floor.bytes)). The floor: \(floor.parts)"
        case .budgetTooSmall(let mode, let needed, let budget):
            return "mode \(mode) needs about \(formatBytes(needed)) (what is resident, the next model's weights or "
                + "activations, and headroom for page buffers) but the memory budget is \(formatBytes(budget)); raise --memory-budget"
        case .missingModel(let path): return "\(path): model file not found"
        }
    }
}
