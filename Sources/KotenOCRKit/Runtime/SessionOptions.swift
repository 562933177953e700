import CONNXRuntime

/// How an inference session is configured (ONNX Runtime session options).
///
/// Defaults are the memory-first ones measured in memory-design.md: the CPU arena and the memory-pattern
/// planner off (activations are returned after each run instead of being kept for the next one),
/// one intra-op thread per session (concurrency comes from running several sessions, bounded by the
/// inference limiter), all graph optimisations.
public struct SessionOptions: Sendable, Hashable {
    public enum GraphOptimisation: Sendable, Hashable { case disabled, basic, extended, all }

    /// Threads used inside one operator (ORT intra-op). ≥ 1.
    public var intraOpThreads: Int = 1
    /// Threads used across independent operators (ORT inter-op). ≥ 1.
    public var interOpThreads: Int = 1
    /// ORT's CPU memory arena. Off returns activation memory to the system after each run.
    public var cpuArena: Bool = false
    /// ORT's memory-pattern planner (pre-allocates one block per input shape). Off by default.
    public var memoryPattern: Bool = false
    public var graphOptimisation: GraphOptimisation = .all

    public init(intraOpThreads: Int = 1, interOpThreads: Int = 1, cpuArena: Bool = false,
                memoryPattern: Bool = false, graphOptimisation: GraphOptimisation = .all) {
        self.intraOpThreads = max(1, intraOpThreads)
        self.interOpThreads = max(1, interOpThreads)
        self.cpuArena = cpuArena
        self.memoryPattern = memoryPattern
        self.graphOptimisation = graphOptimisation
    }

    /// Creates an `OrtSessionOptions`; the caller releases it with `ReleaseSessionOptions`.
    func makeHandle() throws -> OpaquePointer {
        let api = try ORT.table()
        var options: OpaquePointer?
        try ORT.check(try ORT.fn(api.CreateSessionOptions, "CreateSessionOptions")(&options), "CreateSessionOptions")
        guard let options else { throw InferenceError.ortFailure(call: "CreateSessionOptions", code: -1, message: "nil") }
        do {
            try ORT.check(try ORT.fn(api.SetIntraOpNumThreads, "SetIntraOpNumThreads")(options, Int32(intraOpThreads)),
                          "SetIntraOpNumThreads")
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
