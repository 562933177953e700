import Foundation

/// The one owner of every inference session: loads models lazily, per mode, on first use; keeps what is
/// resident within a memory budget; releases least-recently-used models of inactive modes first; releases
/// inactive modes on memory pressure; and reports every load, eviction and release with its bytes.
///
/// Stages reach a session only through `withModel(_:_:)`, whose `ModelHandle.run` passes the shared
/// `InferenceLimiter` — so the budget and the concurrency bound cannot be gone around.
/// Reference: memory-design.md ("What the engine must do, by construction").
public actor ModelStore {
    /// The memory budget in bytes for the whole process (resident memory including runtime, weights and
    /// activations).
    public nonisolated let budgetBytes: Int
    /// The limiter every model run passes.
    public nonisolated let limiter: InferenceLimiter
    /// Session options for every session this store creates.
    public nonisolated let sessionOptions: SessionOptions
    /// Resident bytes of the process when the store was created, ONNX Runtime's environment included.
    public nonisolated let baselineBytes: Int

    private struct Entry {
        let descriptor: ModelDescriptor
        let session: InferenceSession
        let residentBytes: Int
        var lastUse: UInt64
        var leases: Int
    }

    private var entries: [String: Entry] = [:]
    private var registered: [OCRMode: [ModelDescriptor]] = [:]
    private var activationPeaks: [String: [Int: Int]] = [:]
    private var activeMode: OCRMode?
    private var clock: UInt64 = 0
    private var observers: [UUID: AsyncStream<ModelStoreEvent>.Continuation] = [:]
    private var history: [ModelStoreEvent] = []

    /// Creates a store. `budgetBytes` nil takes `MemoryBudget.automatic()` (cgroup limit or physical memory).
    /// Throws `InferenceError` if ONNX Runtime cannot start.
    public init(budgetBytes: Int? = nil, sessionOptions: SessionOptions = SessionOptions(),
                limiter: InferenceLimiter = InferenceLimiter()) throws {
        _ = try InferenceEnvironment.shared()
        self.budgetBytes = budgetBytes ?? MemoryBudget.automatic()
        self.sessionOptions = sessionOptions
        self.limiter = limiter
        self.baselineBytes = ResidentReader.bytes()
    }

    // MARK: - Observing

    /// A stream of every event from now on.
    public func events() -> AsyncStream<ModelStoreEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ModelStoreEvent>.makeStream(bufferingPolicy: .unbounded)
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    /// Every event so far (loads, evictions, releases, measurements), oldest first.
    public func eventLog() -> [ModelStoreEvent] { history }

    /// A stream of every event from now on, and how many events the log held when it began — taken in one
    /// step, so `eventLog()[logCount...]` are exactly the events the stream delivers.
    public func subscribe() -> (logCount: Int, events: AsyncStream<ModelStoreEvent>) {
        (history.count, events())
    }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    private func emit(_ event: ModelStoreEvent) {
        history.append(event)
        for c in observers.values { c.yield(event) }
    }

    // MARK: - Modes

    /// Declares the models a mode's pipeline uses (so the store can plan the whole mode against the budget).
    public func register(_ mode: OCRMode, models: [ModelDescriptor]) {
        registered[mode] = models
    }

    /// Makes `mode` the active one; models of other modes become inactive (released first).
    public func activate(_ mode: OCRMode) {
        activeMode = mode
    }

    public var currentMode: OCRMode? { activeMode }

    /// Loads every registered model of `mode` now (instead of lazily on first use).
    public func preload(_ mode: OCRMode) throws {
        for d in registered[mode] ?? [] {
            _ = try checkout(d)
            checkin(d)
        }
    }

    /// Models loaded now, by id, with their measured resident bytes.
    public func loadedModels() -> [String: Int] { entries.mapValues(\.residentBytes) }

    /// Sum of the measured resident bytes of loaded models.
    public func residentModelBytes() -> Int { entries.values.reduce(0) { $0 + $1.residentBytes } }

    /// The measured activation peak of a model for an input size, if any.
    public func activationPeak(of model: String, inputElements: Int) -> Int? { activationPeaks[model]?[inputElements] }

    /// Bytes the whole of `mode` needs resident at its peak: the runtime baseline, every model's weights and
    /// the largest single activation (never two at once).
    public func requirement(of mode: OCRMode) -> Int {
        let models = registered[mode] ?? []
        let weights = models.reduce(0) { $0 + (entries[$1.id]?.residentBytes ?? $1.estimatedResidentBytes) }
        let activation = models.map { activationEstimate($0, inputElements: $0.typicalInputElements) }.max() ?? 0
        return baselineBytes + weights + activation
    }

    // MARK: - Releasing

    /// Releases the models of every mode except the active one (those not in use). Returns the bytes
    /// released (the sum of their measured resident costs).
    @discardableResult
    public func releaseInactive(reason: String = "inactive mode released") -> Int {
        var freed = 0
        for (id, e) in entries where e.descriptor.mode != activeMode && e.leases == 0 {
            entries[id] = nil
            freed += e.residentBytes
            emit(.released(model: id, residentBytes: e.residentBytes, reason: reason))
        }
        return freed
    }

    /// Releases every model not in use. Returns the bytes released.
    @discardableResult
    public func releaseAll(reason: String = "released on request") -> Int {
        var freed = 0
        for (id, e) in entries where e.leases == 0 {
            entries[id] = nil
            freed += e.residentBytes
            emit(.released(model: id, residentBytes: e.residentBytes, reason: reason))
        }
        return freed
    }

    // MARK: - Using a model

    /// Runs `body` with the model loaded (loading it now if needed, within the budget). The model cannot be
    /// released while `body` runs. Throws `ModelStoreError`, `InferenceError`, or what `body` throws.
    public nonisolated func withModel<R: Sendable>(_ descriptor: ModelDescriptor,
                                                   _ body: @Sendable (ModelHandle) async throws -> R) async throws -> R {
        let session = try await checkout(descriptor)
        let handle = ModelHandle(descriptor: descriptor, session: session, store: self)
        do {
            let result = try await body(handle)
            await checkin(descriptor)
            return result
        } catch {
            await checkin(descriptor)
            throw error
        }
    }

    private func tick() -> UInt64 {
        clock += 1
        return clock
    }

    private func checkout(_ d: ModelDescriptor) throws -> InferenceSession {
        if var e = entries[d.id] {
            e.leases += 1
            e.lastUse = tick()
            entries[d.id] = e
            return e.session
        }
        guard FileManager.default.fileExists(atPath: d.url.path) else { throw ModelStoreError.missingModel(path: d.url.path) }
        if registered[d.mode]?.contains(d) != true { registered[d.mode, default: []].append(d) }
        let needed = d.estimatedResidentBytes + activationEstimate(d, inputElements: d.typicalInputElements)
        makeRoom(for: needed, loading: d)
        let modeNeed = requirement(of: d.mode)
        if modeNeed > budgetBytes && ResidentReader.bytes() + needed > budgetBytes {
            throw ModelStoreError.budgetTooSmall(mode: d.mode, neededBytes: modeNeed, budgetBytes: budgetBytes)
        }
        let before = ResidentReader.bytes()
        let start = Date()
        let session = try InferenceSession(contentsOf: d.url, options: sessionOptions, environment: try InferenceEnvironment.shared())
        let resident = max(0, ResidentReader.bytes() - before)
        entries[d.id] = Entry(descriptor: d, session: session, residentBytes: resident, lastUse: tick(), leases: 1)
        emit(.loaded(model: d.id, residentBytes: resident, fileBytes: d.fileBytes, seconds: Date().timeIntervalSince(start)))
        return session
    }

    private func checkin(_ d: ModelDescriptor) {
        guard var e = entries[d.id] else { return }
        e.leases = max(0, e.leases - 1)
        entries[d.id] = e
    }

    /// Evicts least-recently-used models not in use — inactive modes first, then other models of the
    /// same mode as `d` — until `bytes` more fit under the budget.
    private func makeRoom(for bytes: Int, loading d: ModelDescriptor) {
        while ResidentReader.bytes() + bytes > budgetBytes {
            let candidates = entries.values.filter { $0.leases == 0 && $0.descriptor.id != d.id }
            let inactive = candidates.filter { $0.descriptor.mode != d.mode && $0.descriptor.mode != activeMode }
            let pool = inactive.isEmpty ? candidates.filter { $0.descriptor.mode != d.mode } : inactive
            guard let victim = pool.min(by: { $0.lastUse < $1.lastUse }) else { return }
            entries[victim.descriptor.id] = nil
            emit(.evicted(model: victim.descriptor.id, residentBytes: victim.residentBytes, forModel: d.id))
        }
    }

    // MARK: - Activation accounting

    func activationEstimate(_ d: ModelDescriptor, inputElements: Int) -> Int {
        if let peaks = activationPeaks[d.id], !peaks.isEmpty {
            if let exact = peaks[inputElements] { return exact }
            // Scale the per-element cost of the largest measured run.
            if let (n, bytes) = peaks.max(by: { $0.key < $1.key }), n > 0 {
                return Int(Double(bytes) / Double(n) * Double(inputElements))
            }
        }
        return Int(d.activationBytesPerElement * Double(inputElements))
    }

    /// Before a run: makes room under the budget for its expected activations. Returns true if this run
    /// should be measured (first run of this input size).
    func prepareRun(_ d: ModelDescriptor, inputElements: Int) -> Bool {
        makeRoom(for: activationEstimate(d, inputElements: inputElements), loading: d)
        return activationPeaks[d.id]?[inputElements] == nil
    }

    func recordActivation(_ d: ModelDescriptor, inputElements: Int, bytes: Int) {
        activationPeaks[d.id, default: [:]][inputElements] = bytes
        emit(.activationMeasured(model: d.id, inputElements: inputElements, bytes: bytes))
    }
}

/// A loaded model lent to a stage by `ModelStore.withModel`. Its runs pass the store's inference limiter.
public struct ModelHandle: Sendable {
    public let descriptor: ModelDescriptor
    let session: InferenceSession
    let store: ModelStore

    /// The session's inputs (names, element types, shapes with -1 for dynamic dimensions).
    public var inputs: [TensorInfo] { session.inputs }
    /// The session's outputs.
    public var outputs: [TensorInfo] { session.outputs }

    /// Runs the model on `inputs` (by name), within the inference limiter. The first run of each input size
    /// measures the activation peak and records it with the store (used by the budget).
    /// Throws `InferenceError` with ONNX Runtime's message.
    public func run(_ inputs: [String: Tensor], outputNames: [String]? = nil) async throws -> [String: Tensor] {
        let elements = inputs.values.reduce(0) { $0 + $1.elementCount }
        let measure = await store.prepareRun(descriptor, inputElements: elements)
        let session = self.session
        let (outputs, peak, before) = try await store.limiter.run { () async throws -> ([String: Tensor], Int, Int) in
            let before = ResidentReader.bytes()
            let sampler = measure ? PeakSampler() : nil
            sampler?.start()
            let result: [String: Tensor]
            do {
                result = try session.run(inputs, outputNames: outputNames)
            } catch {
                _ = sampler?.stop()
                throw error
            }
            return (result, sampler?.stop() ?? 0, before)
        }
        if measure { await store.recordActivation(descriptor, inputElements: elements, bytes: max(0, peak - before)) }
        return outputs
    }
}
