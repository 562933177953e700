import Foundation

/// Where one model is in its lifecycle in the store: `unloaded` → `loading` → `loaded` → `evicted` → `loading` …
/// Read it with `ModelStore.state(of:)` or `states()`, follow it with `stateChanges()`; the byte figures of each
/// load and release are in `ModelStoreEvent`.
public enum ModelState: String, Sendable, Codable {
    /// Not loaded yet by this store (registered or never seen, or its first load failed).
    case unloaded
    /// Its session is being created.
    case loading
    /// Resident: its session exists, in use or idle.
    case loaded
    /// Was loaded and has been released: evicted to make room under the budget, or released on memory pressure
    /// or on request. It loads again on next use.
    case evicted
}

/// One model's new state (`ModelStore.stateChanges()`).
package struct ModelStateChange: Sendable, Equatable, CustomStringConvertible {
    /// The model's id, e.g. "ppocr/detector".
    public let model: String
    public let state: ModelState

    public var description: String { "\(model) \(state.rawValue)" }
}

/// The store's per-model states, readable from any thread — also while the store's actor is busy creating a
/// session — and streamed to observers in the order they change. Changed only by `ModelStore`.
final class ModelStateTable: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [String: ModelState] = [:]
    private var residentBytes: [String: Int] = [:]
    private var observers: [UUID: AsyncStream<ModelStateChange>.Continuation] = [:]

    func state(of model: String) -> ModelState { lock.withLock { states[model] ?? .unloaded } }

    /// The measured resident bytes of the models loaded now (readable while the store is busy).
    func loadedBytes() -> Int { lock.withLock { residentBytes.values.reduce(0, +) } }

    func snapshot() -> [String: ModelState] { lock.withLock { states } }

    /// Lists `model` as `unloaded` unless the table knows it (no change is streamed).
    func note(_ model: String) { lock.withLock { if states[model] == nil { states[model] = .unloaded } } }

    /// Sets `model`'s state; a `.loaded` model weighs `bytes` until it leaves that state.
    func set(_ model: String, _ state: ModelState, bytes: Int = 0) {
        lock.withLock {
            residentBytes[model] = state == .loaded ? bytes : nil
            guard states[model] != state else { return }
            states[model] = state
            for c in observers.values { c.yield(ModelStateChange(model: model, state: state)) }
        }
    }

    func changes() -> AsyncStream<ModelStateChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ModelStateChange>.makeStream(bufferingPolicy: .unbounded)
        lock.withLock { observers[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.observers.removeValue(forKey: id) } }
        return stream
    }
}
