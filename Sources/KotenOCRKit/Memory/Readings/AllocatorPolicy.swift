import CAllocator
import Foundation

/// The C allocator's policy for a memory-bounded process (glibc; a no-op elsewhere).
///
/// Measured here: without it, the PP-OCR detector's ~150 MB of activations stayed resident after the run
/// (glibc's dynamic mmap threshold moved large buffers into the heap), so every later stage started from
/// the detector's peak. With a fixed 128 KiB mmap threshold and trimming at stage boundaries, activation
/// memory is returned before the next stage starts (docs/memory-design.md, "What dominates peak memory").
package enum AllocatorPolicy {
    /// Applies the policy once per process: 128 KiB mmap threshold, 1 MiB trim threshold, 2 arenas.
    /// Returns false where the C library has no such controls. Process-wide: an engine applies it only when
    /// its configuration opts in (`OCRConfiguration.tuneAllocator`; `koten-ocr` does).
    @discardableResult
    public static func apply() -> Bool {
        lock.withLock { requested = true }
        return applied
    }

    private static let applied: Bool = koten_allocator_tune(128 << 10, 1 << 20, 2) == 1
    private static let lock = NSLock()
    nonisolated(unsafe) private static var requested = false

    /// Whether `apply()` was called in this process.
    package static var isApplied: Bool { lock.withLock { requested } }

    /// Returns free heap pages to the system (at stage boundaries).
    public static func trim() { _ = koten_allocator_trim() }

    /// Bytes allocated by malloc now (glibc), or nil where unknown. Robust to heap reuse, unlike resident deltas.
    public static func bytesInUse() -> Int? {
        let n = koten_allocator_in_use()
        return n >= 0 ? Int(n) : nil
    }
}
