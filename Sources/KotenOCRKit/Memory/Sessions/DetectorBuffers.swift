import CAllocator
import Foundation

/// The buffers of a page-sized detection run without ONNX Runtime's arena (issue 28; docs/performance.md,
/// "The detector's buffers").
///
/// Without the arena every activation was its own mapping: mapped, faulted in page by page and unmapped again, for
/// each of a run's tensors (0.42 s of a 12 MP photo's 0.45 s detector run here, most of the run's system time). The
/// detection sessions allocate through the environment's allocator instead (`InferenceEnvironment.tensorCache`, C
/// `koten_tensor_cache`): a freed block is kept, newest first, up to `limit` bytes, and the next tensor that fits
/// it (at most a quarter smaller) gets the same pages, already resident. After the run every kept block goes back
/// to the system and nothing more is kept until the next run, so nothing outlives a run. What is kept is bounded
/// twice: by `roomyLimit` while memory is not tight, none while it is (`MemoryTightness`: an explicit budget below the
/// machine's memory, or a pressure release), where every block is unmapped on free as before; and by the run's own
/// high-water mark: the blocks handed out and kept together never exceed the most its requests needed at once, so
/// keeping never raises the run's peak (the bound alone took the 12 MP photo's peak 13–15 MB up in ndl and koten).
package enum DetectorBuffers {
    /// The bound while memory is not tight: 24 MiB. Measured on the 12 MP photo (docs/performance.md): 16 MiB ran
    /// the detector in 0.23 s, 24 MiB in 0.16 s, 32 MiB in 0.16 s, against 0.42 s without; peaks 194–200 MB.
    static let roomyLimit = 24 << 20

    /// The bound `KOTEN_OCR_DETECTOR_CACHE_MB` sets instead of `roomyLimit` (0: no cache), for benchmarks
    /// (docs/diagnostics.md); nil when unset.
    static let override: Int? = ProcessInfo.processInfo.environment["KOTEN_OCR_DETECTOR_CACHE_MB"].flatMap { Int($0) }.map { max(0, $0) << 20 }

    /// Runs `body` (one detection run) with the cache bounded for it. When the last run in flight ends the bound is
    /// 0 again and every kept block goes back to the system, so blocks freed between runs (a session's weights when
    /// the store releases it) are never kept.
    static func around<R>(tight: Bool, _ body: () throws -> R) rethrows -> R {
        guard let cache = try? InferenceEnvironment.shared().tensorCache else { return try body() }
        lock.withLock {
            inFlight += 1
            koten_tensor_cache_set_limit(cache, tight ? 0 : (override ?? roomyLimit))
        }
        defer {
            lock.withLock {
                inFlight -= 1
                if inFlight == 0 { koten_tensor_cache_set_limit(cache, 0) }  // 0 returns what is kept
            }
        }
        return try body()
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var inFlight = 0

    /// What the cache did in this process: mappings made, and requests served from kept blocks.
    package static func statistics() -> (maps: UInt64, reuses: UInt64) {
        guard let cache = try? InferenceEnvironment.shared().tensorCache else { return (0, 0) }
        var maps: UInt64 = 0, reuses: UInt64 = 0
        koten_tensor_cache_stats(cache, &maps, &reuses)
        return (maps, reuses)
    }
}
