import Foundation

/// The server's bounds on work (docs/serve.md, "Safety defaults"): the queue of requests waiting for the engine
/// (one-page requests and unfinished jobs; full: 503) and each client's rate of OCR requests (past it: 429).
final class Admission: @unchecked Sendable {
    let capacity: Int
    let clientRate: Int
    private let lock = NSLock()
    private var pending = 0
    private var recent: [String: [Date]] = [:]

    init(capacity: Int, clientRate: Int) {
        self.capacity = capacity
        self.clientRate = clientRate
    }

    var depth: Int { lock.withLock { pending } }

    /// Takes a place in the queue; false when it is full. `force`: a job found unfinished at start-up.
    func reserve(force: Bool = false) -> Bool {
        lock.withLock {
            guard force || pending < capacity else { return false }
            pending += 1
            return true
        }
    }

    func release() { lock.withLock { pending = max(0, pending - 1) } }

    /// Counts one OCR request of `client`; false when it made `clientRate` of them in the last minute.
    func admit(client: String, now: Date = Date()) -> Bool {
        lock.withLock {
            let since = now.addingTimeInterval(-60)
            var times = (recent[client] ?? []).filter { $0 > since }
            guard times.count < clientRate else { recent[client] = times; return false }
            times.append(now)
            recent[client] = times
            if recent.count > 10_000 { recent = recent.filter { $0.value.contains { $0 > since } } }
            return true
        }
    }
}

/// One page at a time through the engine for `POST /v1/ocr` (FIFO); jobs have their own worker.
actor EngineLane {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !busy { busy = true; return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }
}
