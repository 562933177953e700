import Foundation

/// A job's events for the clients watching it (Server-Sent Events): `progress` at each change, `end` when it is
/// over. Every event is a snapshot of the whole job (`snapshot`, made by the API), so a client that reads slowly
/// needs only the newest: each watcher's stream buffers one (`bufferingNewest(1)`), and one that stops reading
/// holds one (`StreamedBody`).
final class JobEvents: @unchecked Sendable {
    /// The job's status as the API gives it (JSON).
    let snapshot: @Sendable (Job) -> Data

    init(snapshot: @escaping @Sendable (Job) -> Data) { self.snapshot = snapshot }

    /// One event of `job` (`progress` or `end`) in the event-stream format.
    func event(_ name: String, _ job: Job) -> Data {
        Data("event: \(name)\ndata: ".utf8) + snapshot(job) + Data("\n\n".utf8)
    }

    /// A stream of `job`'s events: its state now, then each change; it ends with `end` when the job is over (at
    /// once for a job already over). The watcher leaves the job when its stream ends.
    func watch(_ job: Job) -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1))
        let over = job.change { progress -> Bool in
            if progress.isOver { return true }
            let watcher = UUID()
            progress.watchers[watcher] = continuation
            // Later, not here: the stream may end while the job's lock is held (its last holder released under it).
            continuation.onTermination = { [weak job] _ in
                DispatchQueue.global().async { [job] in job?.change { _ = $0.watchers.removeValue(forKey: watcher) } }
            }
            return false
        }
        continuation.yield(event(over ? "end" : "progress", job))
        if over { continuation.finish() }
        return stream
    }

    /// Sends `job`'s state to its watchers; `end`: the last event, after which their streams end.
    func publish(_ job: Job, end: Bool = false) {
        let data = event(end ? "end" : "progress", job)
        let watchers = job.read { Array($0.watchers.values) }
        for watcher in watchers {
            watcher.yield(data)
            if end { watcher.finish() }
        }
        if end { job.change { $0.watchers = [:] } }
    }
}
