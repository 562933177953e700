import Foundation
import CONNXRuntime

/// How an inference session is configured (ONNX Runtime session options).
///
/// Defaults are the memory-first ones measured here (docs/performance.md): the memory-pattern planner off;
/// the CPU arena chosen per stage (`ArenaPolicy.automatic` → `.recognitionOnly`): off for the page-sized detector run, whose
/// activations dominate the peak and must go back to the system as soon as they are freed, and on — shrunk
/// after every run — for the many small recognition runs, where allocating through the system for every
/// tensor cost more kernel time than the inference itself; one intra-op thread per session (concurrency
/// comes from running several sessions, bounded by the inference limiter); all graph optimisations.
package struct SessionOptions: Sendable, Hashable {
    public enum GraphOptimisation: Sendable, Hashable { case disabled, basic, extended, all }

    /// Threads used inside one operator (ORT intra-op) for classification and recognition, whose runs go
    /// in parallel through the inference limiter. ≥ 1.
    public var intraOpThreads: Int = 1
    /// Intra-op threads for detection: one page-sized run at a time, so it gets the usable CPUs (`UsableCPUs`:
    /// affinity mask and cgroup quota, at most 8). ≥ 1. Its run takes as many inference-limiter slots.
    public var detectionThreads: Int = min(8, UsableCPUs.count)
    /// Threads used across independent operators (ORT inter-op). ≥ 1.
    public var interOpThreads: Int = 1
    /// When ORT's CPU memory arena is used (the memory wing's rule, `Memory/Budget/ArenaPolicy.swift`).
    public typealias ArenaPolicy = KotenOCRKit.ArenaPolicy

    public var arena: ArenaPolicy = .automatic
    /// ORT's memory-pattern planner (pre-allocates one block per input shape). Off by default.
    public var memoryPattern: Bool = false
    public var graphOptimisation: GraphOptimisation = .all

    public init(intraOpThreads: Int = 1, interOpThreads: Int = 1, arena: ArenaPolicy = .automatic,
                memoryPattern: Bool = false, graphOptimisation: GraphOptimisation = .all) {
        self.intraOpThreads = max(1, intraOpThreads)
        self.interOpThreads = max(1, interOpThreads)
        self.arena = arena
        self.memoryPattern = memoryPattern
        self.graphOptimisation = graphOptimisation
    }

    /// The options with the arena policy resolved (`ArenaPolicy.automatic`).
    func resolved() -> SessionOptions {
        var copy = self
        copy.arena = arena.resolved()
        return copy
    }

    /// Whether a model of `stage` runs with the CPU arena.
    func usesArena(for stage: ModelStage) -> Bool { arena.usesArena(for: stage) }

    /// Whether a model of `stage` takes its tensors from the environment's allocator (`DetectorBuffers`): the
    /// page-sized detection run without the arena.
    func usesDetectorBuffers(for stage: ModelStage) -> Bool { stage == .detection && !usesArena(for: stage) }

    /// The intra-op threads of a model of `stage` (also the inference-limiter slots each of its runs takes).
    func threads(for stage: ModelStage) -> Int { stage == .detection ? detectionThreads : intraOpThreads }

    /// Creates an `OrtSessionOptions` for a model of `stage`; the caller releases it with `ReleaseSessionOptions`.
    func makeHandle(for stage: ModelStage) throws -> OpaquePointer {
        let cpuArena = usesArena(for: stage)
        let api = try ORT.table()
        var options: OpaquePointer?
        try ORT.check(try ORT.fn(api.CreateSessionOptions, "CreateSessionOptions")(&options), "CreateSessionOptions")
        guard let options else { throw InferenceError.ortFailure(call: "CreateSessionOptions", code: -1, message: "nil") }
        do {
            let threads = threads(for: stage)
            try ORT.check(try ORT.fn(api.SetIntraOpNumThreads, "SetIntraOpNumThreads")(options, Int32(threads)),
                          "SetIntraOpNumThreads")
            if threads > 1 {
                // Idle pool threads would spin after the run and take the cores the recognisers need.
                try ORT.check(try ORT.fn(api.AddSessionConfigEntry, "AddSessionConfigEntry")(options, "session.intra_op.allow_spinning", "0"),
                              "AddSessionConfigEntry")
            }
            try ORT.check(try ORT.fn(api.SetInterOpNumThreads, "SetInterOpNumThreads")(options, Int32(interOpThreads)),
                          "SetInterOpNumThreads")
            let level: GraphOptimizationLevel
            switch graphOptimisation {
            case .disabled: level = ORT_DISABLE_ALL
            case .basic: level = ORT_ENABLE_BASIC
            case .extended: level = ORT_ENABLE_EXTENDED
            case .all: level = ORT_ENABLE_ALL
            }
            try ORT.check(try ORT.fn(api.SetSessionGraphOptimizationLevel, "SetSessionGraphOptimizationLevel")(options, level),
                          "SetSessionGraphOptimizationLevel")
            if usesDetectorBuffers(for: stage) {
                try ORT.check(try ORT.fn(api.AddSessionConfigEntry, "AddSessionConfigEntry")(options, "session.use_env_allocators", "1"),
                              "AddSessionConfigEntry")
            }
            if cpuArena {
                try ORT.check(try ORT.fn(api.EnableCpuMemArena, "EnableCpuMemArena")(options), "EnableCpuMemArena")
            } else {
                try ORT.check(try ORT.fn(api.DisableCpuMemArena, "DisableCpuMemArena")(options), "DisableCpuMemArena")
            }
            if memoryPattern {
                try ORT.check(try ORT.fn(api.EnableMemPattern, "EnableMemPattern")(options), "EnableMemPattern")
            } else {
                try ORT.check(try ORT.fn(api.DisableMemPattern, "DisableMemPattern")(options), "DisableMemPattern")
            }
        } catch {
            api.ReleaseSessionOptions?(options)
            throw error
        }
        return options
    }
}
