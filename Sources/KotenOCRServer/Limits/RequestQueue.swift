import Foundation

/// The queue of work waiting for the engine (docs/serve.md, "Safety defaults"): one-page requests in flight and
/// unfinished jobs, at most `capacity` (`--queue`); full, a new one is refused (503 with `Retry-After`).
final class RequestQueue: @unchecked Sendable {
    let capacity: Int
    private let lock = NSLock()
    private var pending = 0

    init(capacity: Int) { self.capacity = capacity }

    /// Places taken now.
    var depth: Int { lock.withLock { pending } }
    var isFull: Bool { depth >= capacity }

    /// Takes a place; false when the queue is full. `force`: a job found unfinished at start-up.
    func reserve(force: Bool = false) -> Bool {
        lock.withLock {
            guard force || pending < capacity else { return false }
            pending += 1
            return true
        }
    }

    func release() { lock.withLock { pending = max(0, pending - 1) } }
}
