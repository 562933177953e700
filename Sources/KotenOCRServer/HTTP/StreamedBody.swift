import Foundation

/// A streamed response body (Server-Sent Events) between the task that takes its chunks from an `AsyncStream` and
/// the HTTP layer that sends them: at most one chunk waits to be sent, and the next is taken only once it has gone
/// (or the connection has). A client that stops reading therefore holds one chunk of the server's memory, not every
/// chunk since it stopped; a producer whose chunks are snapshots (a job's events) buffers only the newest
/// (`bufferingNewest(1)`), so a slow client gets the latest state, never a backlog. Knows nothing of libmicrohttpd:
/// `MicroHTTPDServer` hands it the connection's suspend and resume.
final class StreamedBody: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = Data()
    private var ended = false
    private var closed = false
    /// The reader found nothing to send and suspended its connection: the next chunk, or the end, resumes it.
    private var suspended = false
    /// The pump, waiting for `pending` to be sent.
    private var sent: CheckedContinuation<Void, Never>?
    private var most = 0
    /// The most bytes that ever waited to be sent at once (for the tests).
    var mostPending: Int { lock.withLock { most } }
    /// Whether the pump waits for its chunk to be sent (for the tests).
    var pumpWaits: Bool { lock.withLock { sent != nil } }

    /// Takes `stream`'s chunks one at a time until it finishes or `close()` is called, each once the previous one
    /// has been read out; then marks the end. `resume` is called (outside the lock) when the reader had suspended.
    func pump(_ stream: AsyncStream<Data>, resume: @Sendable () -> Void) async {
        for await chunk in stream {
            let wake = lock.withLock { () -> Bool? in
                if closed { return nil }
                pending.append(chunk)
                most = max(most, pending.count)
                defer { suspended = false }
                return suspended
            }
            guard let wake else { break }
            if wake { resume() }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if pending.isEmpty || closed { return true }
                    sent = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            if lock.withLock({ closed }) { break }
        }
        let wake = lock.withLock { () -> Bool in
            ended = true
            defer { suspended = false }
            return suspended
        }
        if wake { resume() }
    }

    /// What `read` did.
    enum Read: Equatable {
        /// Copied this many bytes.
        case bytes(Int)
        /// Nothing more will come.
        case end
        /// Nothing to send yet: `suspend` was called (under the lock, so no chunk can slip in before it).
        case suspended
    }

    /// Copies up to `max` bytes of the waiting chunk into `buffer`; when the chunk has gone, the pump takes the next.
    func read(into buffer: UnsafeMutableRawPointer, max: Int, suspend: () -> Void) -> Read {
        lock.lock()
        if !pending.isEmpty {
            let n = min(max, pending.count)
            pending.withUnsafeBytes { raw in
                if let base = raw.baseAddress { buffer.copyMemory(from: base, byteCount: n) }
            }
            pending.removeFirst(n)
            let waiting = pending.isEmpty ? sent : nil
            if waiting != nil { sent = nil }
            lock.unlock()
            waiting?.resume()
            return .bytes(n)
        }
        defer { lock.unlock() }
        if ended { return .end }
        suspended = true
        suspend()
        return .suspended
    }

    /// The connection is gone: the pump stops (at once if it waits for a chunk to be sent, else at the next chunk).
    func close() {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            closed = true
            defer { sent = nil }
            return sent
        }
        waiting?.resume()
    }
}
