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

    struct Entry {
        let descriptor: ModelDescriptor
        let session: InferenceSession
        let residentBytes: Int
        var lastUse: UInt64
        var leases: Int
    }

    var entries: [String: Entry] = [:]
    private var registered: [OCRMode: [ModelDescriptor]] = [:]
    var activationPeaks: [String: [Int: Int]] = [:]
    private var measuredResident: [String: Int] = [:]
    var measuring: Set<String> = []
    /// Activation bytes reserved by runs in flight (admitted, not finished).
    var reservedActivationBytes = 0
    /// Runs waiting for room under the budget.
    var roomWaiters: [CheckedContinuation<Void, Never>] = []
    var activeMode: OCRMode?
    private var clock: UInt64 = 0
    private var observers: [UUID: AsyncStream<ModelStoreEvent>.Continuation] = [:]
    private var history: [ModelStoreEvent] = []

    /// Creates a store. `budgetBytes` nil takes `MemoryBudget.automatic()` (cgroup limit or physical memory).
    /// Throws `InferenceError` if ONNX Runtime cannot start.
    public init(budgetBytes: Int? = nil, sessionOptions: SessionOptions = SessionOptions(),
                limiter: InferenceLimiter = InferenceLimiter()) throws {
        _ = try InferenceEnvironment.shared()
        let budget = budgetBytes ?? MemoryBudget.automatic()
        self.budgetBytes = budget
        self.sessionOptions = sessionOptions.resolved(explicitBudget: budgetBytes)
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

    func emit(_ event: ModelStoreEvent) {
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
    public func preload(_ mode: OCRMode) async throws {
        for d in registered[mode] ?? [] {
            _ = try await checkout(d)
            checkin(d)
        }
    }

    /// Models loaded now, by id, with their measured resident bytes.
    public func loadedModels() -> [String: Int] { entries.mapValues(\.residentBytes) }

    /// Sum of the measured resident bytes of loaded models.
    public func residentModelBytes() -> Int { entries.values.reduce(0) { $0 + $1.residentBytes } }

    /// The measured activation peak of a model for an input size, if any.
    public func activationPeak(of model: String, inputElements: Int) -> Int? { activationPeaks[model]?[inputElements] }

    /// Bytes `mode` needs at least: the runtime baseline plus its largest single model's weights and activations,
    /// plus the headroom kept for page buffers
    /// (a model may be released and reloaded between stages, so the models need not all be resident at once).
    /// Uses measured figures where they exist, estimates otherwise.
    public func minimumRequirement(of mode: OCRMode) -> Int {
        let models = registered[mode] ?? []
        let largest = models.map { footprint($0) }.max() ?? 0
        return baselineBytes + largest + headroomBytes
    }

    func residentEstimate(_ d: ModelDescriptor) -> Int {
        entries[d.id]?.residentBytes ?? measuredResident[d.id] ?? d.estimatedResidentBytes
    }

    func footprint(_ d: ModelDescriptor) -> Int {
        residentEstimate(d) + activationEstimate(d, inputElements: d.typicalInputElements)
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
        if freed > 0 { AllocatorPolicy.trim() }
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
        if freed > 0 { AllocatorPolicy.trim() }
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

    private func checkout(_ d: ModelDescriptor) async throws -> InferenceSession {
        if var e = entries[d.id] {
            e.leases += 1
            e.lastUse = tick()
            entries[d.id] = e
            return e.session
        }
        guard FileManager.default.fileExists(atPath: d.url.path) else { throw ModelStoreError.missingModel(path: d.url.path) }
        if registered[d.mode]?.contains(d) != true { registered[d.mode, default: []].append(d) }
        let minimum = minimumRequirement(of: d.mode)
        if minimum > budgetBytes {
            throw ModelStoreError.budgetTooSmall(mode: d.mode, neededBytes: minimum, budgetBytes: budgetBytes)
        }
        // Room for the weights now; each run asks for its activations (for its real input size) when it starts.
        try await waitForRoom(residentEstimate(d), for: d, quiet: true)
        if let e = entries[d.id] {  // loaded by another task while this one waited
            entries[d.id]?.leases += 1
            return e.session
        }
        let before = AllocatorPolicy.bytesInUse() ?? ResidentReader.bytes()
        let start = Date()
        let session = try InferenceSession(contentsOf: d.url, options: sessionOptions, stage: d.stage,
                                           environment: try InferenceEnvironment.shared())
        // No run is in flight during a load (`quiet`), so the allocator's growth is this session's.
        let resident = max(0, (AllocatorPolicy.bytesInUse() ?? ResidentReader.bytes()) - before)
        measuredResident[d.id] = resident
        entries[d.id] = Entry(descriptor: d, session: session, residentBytes: resident, lastUse: tick(), leases: 1)
        emit(.loaded(model: d.id, residentBytes: resident, fileBytes: d.fileBytes, seconds: Date().timeIntervalSince(start)))
        return session
    }

    private func checkin(_ d: ModelDescriptor) {
        guard var e = entries[d.id] else { return }
        e.leases = max(0, e.leases - 1)
        entries[d.id] = e
    }

    /// Evicts least-recently-used idle models until `bytes` more fit under the budget: models of inactive
    /// modes (any mode but `d`'s and the active one) and, with `ownMode`, idle models of `d`'s own mode too
    /// (reloaded when next needed). Freed pages are returned to the system at once.
    func makeRoom(for bytes: Int, loading d: ModelDescriptor, ownMode: Bool) {
        while ResidentReader.bytes() + bytes > budgetBytes {
            let idle = entries.values.filter { $0.leases == 0 && $0.descriptor.id != d.id }
            let inactive = idle.filter { $0.descriptor.mode != d.mode && $0.descriptor.mode != activeMode }
            let otherModes = idle.filter { $0.descriptor.mode != d.mode }
            let pool = !inactive.isEmpty ? inactive : !otherModes.isEmpty ? otherModes : ownMode ? idle : []
            guard let victim = pool.min(by: { $0.lastUse < $1.lastUse }) else { return }
            entries[victim.descriptor.id] = nil
            emit(.evicted(model: victim.descriptor.id, residentBytes: victim.residentBytes, forModel: d.id))
            AllocatorPolicy.trim()
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

    /// Whether a run should be measured: the model's first run, which then runs alone (every limiter slot) so
    /// that no other run's memory is counted as its own. Later sizes are estimated from it per input element.
    func shouldMeasure(_ d: ModelDescriptor) -> Bool {
        guard activationPeaks[d.id] == nil, !measuring.contains(d.id) else { return false }
        measuring.insert(d.id)
        return true
    }

    func cancelMeasurement(_ d: ModelDescriptor) { measuring.remove(d.id) }

    func recordActivation(_ d: ModelDescriptor, inputElements: Int, bytes: Int) {
        measuring.remove(d.id)
        activationPeaks[d.id, default: [:]][inputElements] = bytes
        emit(.activationMeasured(model: d.id, inputElements: inputElements, bytes: bytes))
    }
}
