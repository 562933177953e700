import Foundation

/// The one owner of every inference session: loads models lazily, per mode, on first use; keeps what is
/// resident within a memory budget; releases least-recently-used models of inactive modes first; releases
/// inactive modes on memory pressure; and reports every load, eviction and release with its bytes.
///
/// Stages reach a session only through `withModel(_:_:)`, whose `ModelHandle.run` passes the shared
/// `InferenceLimiter` — so the budget and the concurrency bound cannot be gone around. Sessions are created
/// only by the store's `SessionLoading` (ONNX Runtime's in an engine). Each model's lifecycle
/// (`ModelState`) is observable beside the event stream.
/// Reference: docs/memory-design.md ("What the engine must do, by construction").
public actor ModelStore {
    /// The memory budget in bytes for the whole process (resident memory including runtime, weights and
    /// activations).
    public nonisolated let budgetBytes: Int
    /// The limiter every model run passes.
    package nonisolated let limiter: InferenceLimiter
    /// Session options for every session this store creates.
    package nonisolated let sessionOptions: SessionOptions
    /// Resident bytes of the process when the store was created, ONNX Runtime's environment included.
    public nonisolated let baselineBytes: Int
    /// Creates the sessions.
    nonisolated let loader: any SessionLoading
    /// Reads the process's resident memory (admission, activation peaks).
    nonisolated let meter: any ResidentMeter
    /// The budget arithmetic: headroom, what fits.
    nonisolated let rule: AdmissionRule
    /// Each model's lifecycle state.
    nonisolated let modelStates = ModelStateTable()
    /// Whether the store was given a tight budget (`MemoryBudget.isTight`): every run hands its arena back while it
    /// exists (`MemoryTightness`).
    nonisolated let hasTightBudget: Bool
    /// When this store's pressure monitor last released memory (`MemoryPressureMonitor`): the batch reads no page
    /// ahead in the window after it (`PagesInFlight`).
    nonisolated let pressureMark = PressureMark()

    struct Entry {
        let descriptor: ModelDescriptor
        let session: any InferenceRunning
        let residentBytes: Int
        var lastUse: UInt64
        var leases: Int
    }

    var entries: [String: Entry] = [:]
    private var registered: [OCRMode: [ModelDescriptor]] = [:]
    var activationPeaks: [String: [Int: Int]] = [:]
    private var measuredResident: [String: Int] = [:]
    /// Each model's load peak: the highest resident growth while ONNX Runtime built its session (the file's
    /// bytes, the parsed graph and the initialisers side by side, above what stays), measured at its first load.
    private var measuredLoadPeak: [String: Int] = [:]
    var measuring: Set<String> = []
    /// Activation bytes reserved by runs in flight (admitted, not finished).
    var reservedActivationBytes = 0
    /// Runs waiting for room under the budget.
    var roomWaiters: [CheckedContinuation<Void, Never>] = []
    /// Told the model's id whenever a load or run starts waiting for room (`observeRoomWaits`).
    var roomWaitObserver: (@Sendable (String) -> Void)?
    var activeMode: OCRMode?
    /// Whether a page after the current one may use the models loaded now (one load per process). Cleared by
    /// `markLastPage()`; see `releaseFinishedDetection(before:)`.
    private var morePagesFollow = true
    private var clock: UInt64 = 0
    var observers: [UUID: AsyncStream<ModelStoreEvent>.Continuation] = [:]
    var history: [ModelStoreEvent] = []

    /// Creates a store with ONNX Runtime sessions. `budgetBytes` nil takes `MemoryBudget.automatic()` (cgroup
    /// limit or physical memory); `optimisedModels`: where each model's optimised form is kept between processes
    /// (`OptimisedModelCache`; nil: optimised at every load). Throws `InferenceError` if ONNX Runtime cannot start.
    package init(budgetBytes: Int? = nil, sessionOptions: SessionOptions = SessionOptions(),
                limiter: InferenceLimiter = InferenceLimiter(), optimisedModels: OptimisedModelCache? = nil) throws {
        let loader = try ORTSessionLoader(optimisedModels: optimisedModels,
                                          writesOptimised: !MemoryBudget.isTight(explicit: budgetBytes))
        // The library pages start-up touched (ONNX Runtime's kernel registrations above all) are unmapped before the
        // baseline is read: a page is charged for the code it uses (MappedLibraryPages).
        MappedLibraryPages.release()
        self.init(budgetBytes: budgetBytes, sessionOptions: sessionOptions, limiter: limiter,
                  loader: loader, meter: ProcessResidentMeter())
    }

    /// Creates a store whose sessions come from `loader` and whose memory readings come from `meter` (the
    /// baseline is read now, after the loader started its runtime).
    init(budgetBytes: Int?, sessionOptions: SessionOptions, limiter: InferenceLimiter,
         loader: any SessionLoading, meter: any ResidentMeter) {
        let budget = budgetBytes ?? MemoryBudget.automatic()
        self.budgetBytes = budget
        self.sessionOptions = sessionOptions.resolved()
        self.limiter = limiter
        self.loader = loader
        self.meter = meter
        self.rule = AdmissionRule(budgetBytes: budget)
        self.baselineBytes = meter.residentBytes()
        self.hasTightBudget = MemoryBudget.isTight(explicit: budgetBytes)
        if hasTightBudget { MemoryTightness.enterTightBudget() }
    }

    deinit { if hasTightBudget { MemoryTightness.leaveTightBudget() } }

    // MARK: - Modes

    /// Declares the models a mode's pipeline uses (so the store can plan the whole mode against the budget).
    public func register(_ mode: OCRMode, models: [ModelDescriptor]) {
        registered[mode] = models
        for d in models { modelStates.note(d.id) }
    }

    /// Makes `mode` the active one; models of other modes become inactive (released first).
    public func activate(_ mode: OCRMode) {
        activeMode = mode
    }

    public var currentMode: OCRMode? { activeMode }

    /// The models registered for (or used by) `mode`.
    func registeredModels(of mode: OCRMode) -> [ModelDescriptor] { registered[mode] ?? [] }

    /// Loads every registered model of `mode` now (instead of lazily on first use).
    public func preload(_ mode: OCRMode) async throws {
        for d in registered[mode] ?? [] {
            _ = try await checkout(d)
            checkin(d)
        }
    }

    /// Models loaded now, by id, with their measured resident bytes.
    /// Writes the optimised form of each of `mode`'s registered models that the cache lacks (`SessionLoading.
    /// writeOptimisedForm`), one model at a time, only while no model is loaded, the allocator trimmed after each:
    /// the serialisation's moment then stands beside nothing, and the models load from the cache for the pages as
    /// in every later run (docs/memory-design.md, "The first run's cache write"). Returns how many were written.
    package func writeMissingOptimisedForms(of mode: OCRMode) -> Int {
        guard entries.isEmpty else { return 0 }
        var written = 0
        for d in registered[mode] ?? [] where FileManager.default.fileExists(atPath: d.url.path) {
            if loader.writeOptimisedForm(d, options: sessionOptions) {
                written += 1
                AllocatorPolicy.trim()
            }
        }
        return written
    }

    public func loadedModels() -> [String: Int] { entries.mapValues(\.residentBytes) }

    /// Sum of the measured resident bytes of loaded models.
    public func residentModelBytes() -> Int { entries.values.reduce(0) { $0 + $1.residentBytes } }

    /// The same, readable from any thread without waiting for the store (benchmarks read it at stage boundaries).
    package nonisolated func loadedModelBytesNow() -> Int { modelStates.loadedBytes() }

    /// The measured activation peak of a model for an input size, if any.
    public func activationPeak(of model: String, inputElements: Int) -> Int? { activationPeaks[model]?[inputElements] }

    /// Bytes `mode` needs at least: the runtime baseline plus its largest single model's weights and activations,
    /// plus the headroom kept for page buffers
    /// (a model may be released and reloaded between stages, so the models need not all be resident at once).
    /// Uses measured figures where they exist, estimates otherwise.
    public func minimumRequirement(of mode: OCRMode) -> Int { floor(of: mode).bytes }

    /// The floor of `mode` (`ModelStore.ModeFloor`): the baseline, its largest model's weights and activations, the headroom.
    public func floor(of mode: OCRMode) -> ModeFloor {
        let largest = (registered[mode] ?? []).max { footprint($0) < footprint($1) }
        return ModeFloor(mode: mode, baselineBytes: baselineBytes, model: largest?.id ?? "none",
                         weightBytes: largest.map(residentEstimate) ?? 0,
                         activationBytes: largest.map { activationEstimate($0, inputElements: $0.typicalInputElements) } ?? 0,
                         inputBytes: (largest?.typicalInputElements ?? 0) * 4,
                         headroomBytes: headroomBytes)
    }

    func residentEstimate(_ d: ModelDescriptor) -> Int {
        entries[d.id]?.residentBytes ?? measuredResident[d.id] ?? d.estimatedResidentBytes
    }

    /// The room a load of `d` needs: its measured load peak, or before its first load its weights plus the file's
    /// bytes (ONNX Runtime holds the serialised model beside the session's initialisers while it builds the
    /// session; measured: the koten stand-in detector, 43 MB resident from a 40 MB file, peaks at 81–90 MB).
    func loadPeakEstimate(_ d: ModelDescriptor) -> Int {
        measuredLoadPeak[d.id] ?? residentEstimate(d) + d.fileBytes
    }

    /// The measured load peak of `model` (nil before its first load). See `loadPeakEstimate`.
    package func loadPeak(of model: String) -> Int? { measuredLoadPeak[model] }

    func footprint(_ d: ModelDescriptor) -> Int {
        residentEstimate(d) + activationEstimate(d, inputElements: d.typicalInputElements)
    }

    // MARK: - Releasing

    /// Releases the models of every mode except the active one (those not in use). Returns the bytes
    /// released (the sum of their measured resident costs).
    @discardableResult
    public func releaseInactive(reason: String = "inactive mode released") -> Int {
        release(reason: reason) { $0.descriptor.mode != activeMode }
    }

    /// Releases every model not in use. Returns the bytes released.
    @discardableResult
    public func releaseAll(reason: String = "released on request") -> Int {
        release(reason: reason) { _ in true }
    }

    private func release(reason: String, where chosen: (Entry) -> Bool) -> Int {
        var freed = 0
        for (id, e) in entries where chosen(e) && e.leases == 0 {
            entries[id] = nil
            freed += e.residentBytes
            modelStates.set(id, .evicted)
            emit(.released(model: id, residentBytes: e.residentBytes, reason: reason))
        }
        if freed > 0 { AllocatorPolicy.trim() }
        return freed
    }

    // MARK: - Using a model

    /// Runs `body` with the model loaded (loading it now if needed, within the budget). The model cannot be
    /// released while `body` runs. Throws `ModelStoreError`, `InferenceError`, `CancellationError` (the task
    /// was cancelled before `body` started: a cancelled page loads and runs nothing more), or what `body` throws.
    package nonisolated func withModel<R: Sendable>(_ descriptor: ModelDescriptor,
                                                   _ body: @Sendable (ModelHandle) async throws -> R) async throws -> R {
        try Task.checkCancellation()
        let session = try await checkout(descriptor)
        let handle = ModelHandle(descriptor: descriptor, session: session, store: self)
        do {
            try Task.checkCancellation()  // cancelled while the model loaded
            let result = try await body(handle)
            await checkin(descriptor)
            return result
        } catch {
            await checkin(descriptor)
            throw error
        }
    }

    func tick() -> UInt64 {
        clock += 1
        return clock
    }

    /// No page follows the one being read (the batch runner says so before its last page): from now on a mode's
    /// idle detector is released as soon as a later stage of that mode runs, since nothing will run it again. Without
    /// it the last page's recognition ran with the detector still resident, and a single page peaked above its
    /// largest stage (docs/performance.md, "The last page").
    package func markLastPage() { morePagesFollow = false }

    /// On the last page (`markLastPage`), before a classification or recognition run of `d`: releases `d`'s mode's idle
    /// detection models.
    private func releaseFinishedDetection(before d: ModelDescriptor) {
        guard !morePagesFollow, d.stage != .detection else { return }
        _ = release(reason: "last page: detection done, not needed again") {
            $0.descriptor.mode == d.mode && $0.descriptor.stage == .detection
        }
    }

    private func checkout(_ d: ModelDescriptor) async throws -> any InferenceRunning {
        releaseFinishedDetection(before: d)
        if var e = entries[d.id] {
            e.leases += 1
            e.lastUse = tick()
            entries[d.id] = e
            return e.session
        }
        guard FileManager.default.fileExists(atPath: d.url.path) else { throw ModelStoreError.missingModel(path: d.url.path) }
        if registered[d.mode]?.contains(d) != true {
            registered[d.mode, default: []].append(d)
            modelStates.note(d.id)
        }
        let floor = floor(of: d.mode)
        if floor.bytes > budgetBytes { throw ModelStoreError.belowFloor(floor, budgetBytes: budgetBytes) }
        // Room for the load's peak now (the weights and what building the session holds beside them for a moment);
        // each run asks for its activations (for its real input size) when it starts.
        try await waitForRoom(loadPeakEstimate(d), for: d, quiet: true)
        if let e = entries[d.id] {  // loaded by another task while this one waited
            entries[d.id]?.leases += 1
            return e.session
        }
        let start = Date()
        let previous = modelStates.state(of: d.id)
        modelStates.set(d.id, .loading)
        let loaded: (session: any InferenceRunning, residentBytes: Int)
        do {
            let before = meter.residentBytes()
            let (value, peak) = try meter.peak { try loader.load(d, options: sessionOptions) }
            loaded = value
            measuredLoadPeak[d.id] = max(value.residentBytes, peak - before)
        } catch {
            modelStates.set(d.id, previous)
            throw error
        }
        measuredResident[d.id] = loaded.residentBytes
        entries[d.id] = Entry(descriptor: d, session: loaded.session, residentBytes: loaded.residentBytes, lastUse: tick(), leases: 1)
        modelStates.set(d.id, .loaded, bytes: loaded.residentBytes)
        emit(.loaded(model: d.id, residentBytes: loaded.residentBytes, fileBytes: d.fileBytes, seconds: Date().timeIntervalSince(start)))
        return loaded.session
    }

    private func checkin(_ d: ModelDescriptor) {
        guard var e = entries[d.id] else { return }
        e.leases = max(0, e.leases - 1)
        entries[d.id] = e
    }
}
