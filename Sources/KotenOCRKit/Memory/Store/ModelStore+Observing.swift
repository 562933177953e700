import Foundation

/// What the store did (`ModelStoreEvent`, with bytes) and where each model is (`ModelState`).
extension ModelStore {
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

    /// The state of `model` now (`.unloaded` for a model the store has not seen). Readable while the store is
    /// loading a model.
    public nonisolated func state(of model: ModelDescriptor) -> ModelState { modelStates.state(of: model.id) }

    /// The state of every model registered with or used through the store, by id ("ppocr/detector").
    public nonisolated func states() -> [String: ModelState] { modelStates.snapshot() }

    /// A stream of every state change from now on, in the order they happen.
    package nonisolated func stateChanges() -> AsyncStream<ModelStateChange> { modelStates.changes() }

    /// Calls `observer` with the model's id whenever a load or a run of it starts waiting for room under the
    /// budget (until a run in flight finishes). Called on the store, before the caller suspends.
    func observeRoomWaits(_ observer: @escaping @Sendable (String) -> Void) { roomWaitObserver = observer }
}
