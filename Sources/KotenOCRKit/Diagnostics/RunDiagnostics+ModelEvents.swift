import Foundation

/// One attached model store: the log position where the run began and when each later event arrived.
final class ModelEventFeed: @unchecked Sendable {
    let store: ModelStore
    let logCount: Int
    /// Arrival times of the events after `logCount`, in order. Changed under the run's lock.
    var times: [Date] = []
    var task: Task<Void, Never>?

    init(store: ModelStore, logCount: Int) {
        self.store = store
        self.logCount = logCount
    }
}

extension RunDiagnostics {
    /// Records `store`'s loads, evictions, releases and activation measurements from now until `finish()`,
    /// each with the time it arrived. Attaching the same store again does nothing.
    public func attach(_ store: ModelStore) async {
        if lock.withLock({ finished != nil || attachments.contains { $0.store === store } }) { return }
        let (logCount, stream) = await store.subscribe()
        let feed = ModelEventFeed(store: store, logCount: logCount)
        lock.withLock {
            guard finished == nil, !attachments.contains(where: { $0.store === store }) else { return }
            attachments.append(feed)
            feed.task = Task { [weak self] in
                for await _ in stream {
                    let now = Date()
                    self?.lock.withLock { feed.times.append(now) }
                }
            }
        }
    }

    /// The events of every attached store since it was attached, from the stores' own logs, with arrival times
    /// where they arrived. Stops listening.
    func drainModelEvents() async -> [Payload.ModelEvent] {
        let feeds = lock.withLock { attachments }
        var events: [Payload.ModelEvent] = []
        for feed in feeds {
            let log = await feed.store.eventLog()
            let times: [Date] = lock.withLock {
                feed.task?.cancel()
                return feed.times
            }
            for (i, event) in log.dropFirst(feed.logCount).enumerated() {
                events.append(Payload.ModelEvent(event, time: i < times.count ? times[i] : nil))
            }
        }
        return events
    }
}

extension RunDiagnostics.Payload.ModelEvent {
    init(_ event: ModelStoreEvent, time: Date?) {
        switch event {
        case .loaded(let model, let resident, let file, let seconds):
            self.init(time: time, event: "loaded", model: model, bytes: resident, fileBytes: file, seconds: seconds)
        case .evicted(let model, let resident, let other):
            self.init(time: time, event: "evicted", model: model, bytes: resident, reason: "to load \(other)")
        case .released(let model, let resident, let why):
            self.init(time: time, event: "released", model: model, bytes: resident, reason: why)
        case .activationMeasured(let model, let elements, let bytes):
            self.init(time: time, event: "activation-measured", model: model, bytes: bytes, inputElements: elements)
        }
    }
}
