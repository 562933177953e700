/// Bounds how many model runs are in flight at once, across every stage and every page (default 4).
///
/// Every `ModelHandle.run` passes through the store's limiter, so a page with 300 lines never has more than
/// `limit` recognitions (or detections) running, each with its own activation buffers — the third failure in
/// memory-design.md. Waiters are served first-in, first-out. `inFlight` and `highWaterMark` let tests and
/// benchmarks check the bound.
public actor InferenceLimiter {
    /// The most runs allowed at once (≥ 1).
    public let limit: Int
    /// Runs in flight now.
    public private(set) var inFlight = 0
    /// The most runs that were ever in flight at once.
    public private(set) var highWaterMark = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int = 4) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a slot is free. The slot is returned when `body` returns or throws.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if inFlight < limit {
            inFlight += 1
        } else {
            await withCheckedContinuation { waiters.append($0) }
            // The releasing task handed its slot over: inFlight already counts us.
        }
        highWaterMark = max(highWaterMark, inFlight)
    }

    private func release() {
        if waiters.isEmpty {
            inFlight -= 1
        } else {
            waiters.removeFirst().resume()
        }
    }

    /// Forgets the high-water mark (for benchmarks that measure one phase).
    public func resetHighWaterMark() { highWaterMark = inFlight }
}
