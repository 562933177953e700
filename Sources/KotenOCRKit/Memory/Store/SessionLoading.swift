import Foundation

/// A loaded model as the store lends it to stages: its inputs and outputs, and a run.
///
/// `InferenceSession` (ONNX Runtime) is the real one; the store's unit tests use sessions of set sizes.
/// Only a `SessionLoading` creates one, and only `ModelStore` calls a loader: stages reach a session through
/// `ModelStore.withModel` and `ModelHandle.run`, never directly.
protocol InferenceRunning: AnyObject, Sendable {
    /// Inputs in the model's declared order; dynamic dimensions are -1.
    var inputs: [TensorInfo] { get }
    /// Outputs in the model's declared order.
    var outputs: [TensorInfo] { get }
    /// Runs the model on `inputs` (by name; every declared input must be given) and hands `consume` the outputs
    /// named in `outputNames` (all when nil), valid only during the call. `shrinkArena` returns the CPU arena's
    /// unused memory after the run. Blocks its thread. Throws `InferenceError`, or what `consume` throws.
    func run<R>(_ inputs: [String: Tensor], outputNames: [String]?, shrinkArena: Bool,
                consume: ([String: TensorView]) throws -> R) throws -> R
}

/// How the store turns a model file into a session: the one place sessions are created.
protocol SessionLoading: Sendable {
    /// Loads `model` with `options` (its stage picks the arena and thread settings). Returns the session and its
    /// resident cost in bytes: what the load added to the process (the store loads only while no run is in
    /// flight, so the growth is the session's own). Throws `InferenceError` when the file cannot be loaded.
    func load(_ model: ModelDescriptor, options: SessionOptions) throws -> (session: any InferenceRunning, residentBytes: Int)

    /// Writes `model`'s optimised form into the loader's cache when it has none, by a session made for that and
    /// dropped at once. Returns whether one was written; false without a cache, when an entry is there, or when
    /// the file cannot be loaded (its load's own error comes later, from `load`).
    func writeOptimisedForm(_ model: ModelDescriptor, options: SessionOptions) -> Bool
}

extension SessionLoading {
    func writeOptimisedForm(_ model: ModelDescriptor, options: SessionOptions) -> Bool { false }
}

/// The real loader: ONNX Runtime sessions in the process-wide environment, each model's optimised form kept in
/// `optimisedModels` when there is one (`OptimisedModelCache`).
struct ORTSessionLoader: SessionLoading {
    let environment: InferenceEnvironment
    let optimisedModels: OptimisedModelCache?
    /// Whether a load may write a missing entry of `optimisedModels` (not under a tight budget: writing holds the
    /// serialised model beside the session for a moment, the rec model's load 19 → 29 MB, which the load's room
    /// does not count).
    let writesOptimised: Bool

    /// Starts ONNX Runtime (once per process). Throws `InferenceError` if it cannot.
    init(optimisedModels: OptimisedModelCache? = nil, writesOptimised: Bool = true) throws {
        environment = try InferenceEnvironment.shared()
        self.optimisedModels = optimisedModels
        self.writesOptimised = writesOptimised
    }

    /// The resident cost is the C allocator's growth during the load (robust to heap reuse), or the resident
    /// growth where the allocator cannot tell (measured: about 1.08 × the file, docs/native-dependencies.md, "Memory").
    func load(_ model: ModelDescriptor, options: SessionOptions) throws -> (session: any InferenceRunning, residentBytes: Int) {
        let before = AllocatorPolicy.bytesInUse() ?? ResidentReader.bytes()
        let session = try session(for: model, options: options)
        let resident = max(0, (AllocatorPolicy.bytesInUse() ?? ResidentReader.bytes()) - before)
        return (session, resident)
    }

    /// The first run after an install writes every entry here before the page's models load (`ModelStore.
    /// writeMissingOptimisedForms`): ONNX Runtime serialises the graph while the session is made, and that moment,
    /// beside the other models and a page, took the first run's peak past later runs' (ndl: 509 against 385 MB).
    func writeOptimisedForm(_ model: ModelDescriptor, options: SessionOptions) -> Bool {
        guard writesOptimised, let cache = optimisedModels, let key = cache.key(for: model.url, level: options.graphOptimisation) else {
            return false
        }
        // Any entry there is left to the load, which checks its checksum once (a damaged one is written again as it
        // loads): checking it here too would read and hash every entry twice at every start.
        if cache.entry(for: key) != nil { return false }
        guard let temporary = try? cache.temporaryFile(for: key) else { return false }
        do {
            _ = try InferenceSession(contentsOf: model.url, options: options, stage: model.stage, environment: environment,
                                     saveOptimised: temporary)
            cache.commit(temporary, key: key, for: model.url)
            return true
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
    }

    /// `model`'s session: from its optimised form when the cache has it; else from its .onnx file, writing the
    /// optimised form into the cache as it loads (`writesOptimised`). A cache that cannot be written or read is passed by: the model
    /// loads from its .onnx file, and a failure is the .onnx file's own.
    private func session(for model: ModelDescriptor, options: SessionOptions) throws -> InferenceSession {
        func fromFile(saving: URL? = nil) throws -> InferenceSession {
            try InferenceSession(contentsOf: model.url, options: options, stage: model.stage, environment: environment,
                                 saveOptimised: saving)
        }
        guard let cache = optimisedModels, let key = cache.key(for: model.url, level: options.graphOptimisation) else {
            return try fromFile()
        }
        if let entry = cache.entry(for: key) {
            if cache.isWhole(entry),
               let session = try? InferenceSession(contentsOf: entry, options: options, stage: model.stage, environment: environment,
                                                   optimised: true, name: model.url.lastPathComponent) {
                cache.touch(entry)
                return session
            }
            cache.remove(entry)  // damaged or unreadable: written again below
        }
        guard writesOptimised, let temporary = try? cache.temporaryFile(for: key) else { return try fromFile() }
        do {
            let session = try fromFile(saving: temporary)
            cache.commit(temporary, key: key, for: model.url)
            return session
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return try fromFile()
        }
    }
}

extension InferenceSession: InferenceRunning {}
