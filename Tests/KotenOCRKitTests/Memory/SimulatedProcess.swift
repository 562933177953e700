import Foundation
import Testing
@testable import KotenOCRKit

/// A process simulated for the model store's budget rules, without ONNX Runtime: a baseline, other memory the
/// store does not see (page buffers), sessions whose weights occupy their set bytes while they exist, and runs
/// whose activations occupy their set bytes while they execute. It is both the store's `SessionLoading` and
/// its `ResidentMeter`, and keeps the high-water mark of its resident bytes.
///
/// A session weighs its descriptor's estimate (`estimatedResidentBytes`), its load holds the file's bytes beside
/// the weights for a moment (the load peak), and a run takes its descriptor's
/// activation estimate for the run's input size, so the store's estimates and the measured figures agree.
/// `onEvent` hears "load <id>", "start <id>" and "end <id>" as they happen; `hold(_:)` stops the next run of a
/// model inside the session until `release(_:)`.
final class SimulatedProcess: ResidentMeter, SessionLoading, @unchecked Sendable {
    private let lock = NSLock()
    private let baselineBytes: Int
    private var otherBytes = 0
    private var weightBytes = 0
    private var activeBytes = 0
    private var highWater: Int
    private var peak: Int?
    private var held: [String: DispatchSemaphore] = [:]
    private var loadLog: [String] = []
    private var failing: Set<String> = []
    private var fixedRunBytes: [String: Int] = [:]
    private var eventHandler: (@Sendable (String) -> Void)?
    private var loadHandler: (@Sendable (ModelDescriptor) -> Void)?

    init(baselineBytes: Int) {
        self.baselineBytes = baselineBytes
        highWater = baselineBytes
    }

    // MARK: - Setting the scene

    /// Memory the store does not account (decoded pages, crops), from now on.
    func setOtherBytes(_ bytes: Int) { change { otherBytes = bytes } }

    /// Every run of `model` (an id) takes `bytes` more than its activations per input element: buffers any input
    /// size needs, as a real model's runs do.
    func setFixedRunBytes(_ model: String, _ bytes: Int) { lock.withLock { fixedRunBytes[model] = bytes } }

    /// Loads of `model` (an id) fail as ONNX Runtime's refusal would.
    func failLoads(of model: String) { lock.withLock { _ = failing.insert(model) } }

    func onEvent(_ handler: @escaping @Sendable (String) -> Void) { lock.withLock { eventHandler = handler } }

    /// Called inside every load, while the session is being created.
    func duringLoad(_ handler: @escaping @Sendable (ModelDescriptor) -> Void) { lock.withLock { loadHandler = handler } }

    /// The next run of `model` stops inside its session (its activations held) until `release(model)`.
    func hold(_ model: String) { lock.withLock { held[model] = DispatchSemaphore(value: 0) } }

    func release(_ model: String) { lock.withLock { held.removeValue(forKey: model) }?.signal() }

    // MARK: - What happened

    /// The highest resident bytes so far.
    var highWaterBytes: Int { lock.withLock { highWater } }

    /// Model ids in the order their sessions were created.
    var loads: [String] { lock.withLock { loadLog } }

    // MARK: - ResidentMeter

    func residentBytes() -> Int { lock.withLock { resident } }

    func peak<T>(during body: () throws -> T) rethrows -> (value: T, peakBytes: Int) {
        lock.withLock { peak = resident }
        defer { lock.withLock { peak = nil } }
        let value = try body()
        return (value, lock.withLock { peak ?? resident })
    }

    // MARK: - SessionLoading

    func load(_ model: ModelDescriptor, options: SessionOptions) throws -> (session: any InferenceRunning, residentBytes: Int) {
        let (refuse, onLoad) = lock.withLock { (failing.contains(model.id), loadHandler) }
        onLoad?(model)
        if refuse {
            throw InferenceError.ortFailure(call: "CreateSession(\(model.url.lastPathComponent))", code: 7, message: "simulated refusal")
        }
        let weight = model.estimatedResidentBytes
        // As ONNX Runtime does, the file's bytes are held beside the weights while the session is built.
        change {
            weightBytes += weight
            otherBytes += model.fileBytes
            loadLog.append(model.id)
        }
        change { otherBytes -= model.fileBytes }
        emit("load \(model.id)")
        return (SimulatedSession(process: self, model: model, weightBytes: weight), weight)
    }

    /// The models whose optimised form the simulated cache lacks; a write takes the model's file bytes twice
    /// (the graph and its serialised form) for the moment it lasts, as ONNX Runtime's does, then keeps nothing.
    private var missingOptimised: Set<String> = []
    private var writeLog: [String] = []

    func lackOptimisedForms(_ models: [ModelDescriptor]) { lock.withLock { missingOptimised = Set(models.map(\.id)) } }

    /// "id (with N bytes of weights loaded)" for each optimised form written, in order.
    var writes: [String] { lock.withLock { writeLog } }

    func writeOptimisedForm(_ model: ModelDescriptor, options: SessionOptions) -> Bool {
        guard lock.withLock({ missingOptimised.remove(model.id) }) != nil else { return false }
        let loaded = lock.withLock { weightBytes }
        change { otherBytes += 2 * model.fileBytes }
        change { otherBytes -= 2 * model.fileBytes }
        lock.withLock { writeLog.append("\(model.id) (with \(loaded) bytes of weights loaded)") }
        return true
    }

    // MARK: - Used by sessions

    fileprivate func unload(_ bytes: Int) { change { weightBytes -= bytes } }

    fileprivate func run(_ model: ModelDescriptor, inputElements: Int) {
        let bytes = Int(model.activationBytesPerElement * Double(inputElements)) + lock.withLock { fixedRunBytes[model.id] ?? 0 }
        change { activeBytes += bytes }
        emit("start \(model.id)")
        let gate = lock.withLock { held[model.id] }
        gate?.wait()
        change { activeBytes -= bytes }
        emit("end \(model.id)")
    }

    // MARK: - Private

    private var resident: Int { baselineBytes + otherBytes + weightBytes + activeBytes }

    private func change(_ body: () -> Void) {
        lock.withLock {
            body()
            highWater = max(highWater, resident)
            if let p = peak { peak = max(p, resident) }
        }
    }

    private func emit(_ event: String) { lock.withLock { eventHandler }?(event) }
}

/// A session of set sizes: its weight is part of the process while it exists; a run holds its activations.
private final class SimulatedSession: InferenceRunning, @unchecked Sendable {
    let process: SimulatedProcess
    let model: ModelDescriptor
    let weightBytes: Int
    let inputs = [TensorInfo(name: "x", elementType: .float32, shape: [-1])]
    let outputs: [TensorInfo] = []

    init(process: SimulatedProcess, model: ModelDescriptor, weightBytes: Int) {
        self.process = process
        self.model = model
        self.weightBytes = weightBytes
    }

    deinit { process.unload(weightBytes) }

    func run<R>(_ inputs: [String: Tensor], outputNames: [String]?, shrinkArena: Bool,
                consume: ([String: TensorView]) throws -> R) throws -> R {
        process.run(model, inputElements: inputs.values.reduce(0) { $0 + $1.elementCount })
        return try consume([:])
    }
}

/// Models, a store and runs for the budget tests: every model file is 20 MB (a session weighs its estimate,
/// `weight`), every run has 1,000 input elements, and the process starts at 50 MB.
struct StoreScene {
    static let baseline = 50_000_000
    static let fileBytes = 20_000_000
    static let inputElements = 1_000
    /// What a loaded model weighs: 1.08 × 20 MB + 8 MiB.
    static let weight = Int(Double(fileBytes) * 1.08) + 8 << 20

    let folder: URL
    let process = SimulatedProcess(baselineBytes: StoreScene.baseline)

    init() throws {
        folder = try TestPaths.temporaryDirectory("store-scene")
    }

    /// A model of `mode` whose runs take `activationBytes` (its typical run has the scene's input size).
    func model(_ mode: OCRMode, _ role: String, activationBytes: Int = 10_000_000) throws -> ModelDescriptor {
        let url = folder.appendingPathComponent("\(mode.rawValue)-\(role).onnx")
        if !FileManager.default.fileExists(atPath: url.path) {
            try #require(FileManager.default.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(Self.fileBytes))
            try handle.close()
        }
        return ModelDescriptor(mode: mode, role: role, stage: .recognition, url: url,
                               activationBytesPerElement: Double(activationBytes) / Double(Self.inputElements),
                               typicalInputElements: Self.inputElements)
    }

    func store(budget: Int, limit: Int = 4) -> ModelStore {
        ModelStore(budgetBytes: budget, sessionOptions: SessionOptions(), limiter: InferenceLimiter(limit: limit),
                   loader: process, meter: process)
    }

    static let input = ["x": Tensor(shape: [inputElements], floats: [Float](repeating: 0, count: inputElements))]
}

extension ModelStore {
    /// Loads `model` if needed and returns at once (no run).
    func touch(_ model: ModelDescriptor) async throws { try await withModel(model) { _ in } }

    /// One run of `model` on the scene's input, or on `elements` input values.
    func runOnce(_ model: ModelDescriptor, elements: Int = StoreScene.inputElements) async throws {
        let input = ["x": Tensor(shape: [elements], floats: [Float](repeating: 0, count: elements))]
        try await withModel(model) { handle in _ = try await handle.run(input) }
    }

    /// The ids of the models evicted so far, each with the model it made room for.
    func evictions() -> [String] {
        eventLog().compactMap { if case .evicted(let m, _, let f) = $0 { return "\(m) for \(f)" }; return nil }
    }
}
