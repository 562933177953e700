/// Bounds how many model runs are in flight at once, across every stage and every page (default: the usable CPUs,
/// at most 4; `OCRConfiguration.defaultConcurrentInferences`).
///
/// Every `ModelHandle.run` passes through the store's limiter, so a page with 300 lines never has more than
/// `limit` recognitions (or detections) running, each with its own activation buffers — the third failure in
/// docs/memory-design.md ("What the engine must do, by construction"). Waiters are served first-in, first-out.
/// `inFlight` and `highWaterMark` let tests and benchmarks check the bound. A run takes one slot per thread it
/// computes on (a detector run with two intra-op threads takes two), so with one slot per usable CPU
/// (`UsableCPUs`) runs in flight never ask for more threads than there are CPUs. An exclusive run (used once per
/// model to measure its activation memory alone) takes every slot. A cancelled task starts no run: `run` throws
/// `CancellationError` before it waits and when its turn comes, so cancelling a page stops it after the runs in
/// flight (`KotenOCR.read`).
package actor InferenceLimiter {
    /// The most runs allowed at once (≥ 1).
    public let limit: Int
    /// Runs in flight now.
    public private(set) var inFlight = 0
    /// The most runs that were ever in flight at once.
    public private(set) var highWaterMark = 0
    /// Runs started so far (bodies entered).
    public private(set) var started = 0
    private var slotsTaken = 0
    private var waiters: [(slots: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public init(limit: Int = 4) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once `slots` slots are free (at least 1, at most `limit`; all of them when `exclusive`).
    /// The slots are returned when `body` returns or throws. Throws `CancellationError` instead of running `body`
    /// when the task is cancelled before or while it waits (its slots pass on to the next waiter).
    public func run<T: Sendable>(slots wanted: Int = 1, exclusive: Bool = false,
                                 _ body: @Sendable () async throws -> T) async throws -> T {
        try Task.checkCancellation()
        let slots = exclusive ? limit : min(limit, max(1, wanted))
        await acquire(slots)
        if Task.isCancelled {
            release(slots)
            throw CancellationError()
        }
        started += 1
        inFlight += 1
        highWaterMark = max(highWaterMark, inFlight)
        defer {
            inFlight -= 1
            release(slots)
        }
        return try await body()
    }

    private func acquire(_ slots: Int) async {
        if waiters.isEmpty && slotsTaken + slots <= limit {
            slotsTaken += slots
            return
        }
        await withCheckedContinuation { waiters.append((slots, $0)) }
        // The releasing task handed the slots over: slotsTaken already counts them.
    }

    private func release(_ slots: Int) {
        slotsTaken -= slots
        while let first = waiters.first, slotsTaken + first.slots <= limit {
            waiters.removeFirst()
            slotsTaken += first.slots
            first.continuation.resume()
        }
    }

    /// Forgets the high-water mark (for benchmarks that measure one phase).
    public func resetHighWaterMark() { highWaterMark = inFlight }
}
