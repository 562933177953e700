import CAllocator

/// The clean pages of shared libraries and the executable that are mapped into the process: code and read-only
/// data, identical to their files. Linux counts them in resident memory (VmRSS, VmHWM, a cgroup's usage) although
/// the kernel can drop them at any time; Darwin's footprint (what jetsam counts) never does.
///
/// Measured here (`koten-ocr-bench case baseline`, docs/performance.md "Runtime baseline"): they are most of the runtime
/// baseline, ONNX Runtime's library alone about 30 MB — its start-up touches its kernel registrations and the page
/// cache's fault-around maps their neighbours — though a page's runs use a small part of them. `release()` unmaps
/// them (`madvise(MADV_DONTNEED)`): they stay in the page cache, and what a run needs comes back on its first touch
/// (a minor fault), so the process is charged for the code a page uses, not for all the code start-up touched.
///
/// Only the segments the dynamic loader never writes are released (loaded, not writable, in objects without text
/// relocations: code and read-only data, never relocated data or RELRO, which lie in the writable segment), found
/// in the loader's own list of loaded objects (`dl_iterate_phdr`) and released with its lock held (C:
/// `koten_release_library_pages`). Why not from /proc/self/smaps, as before: a library another thread was loading
/// could be seen there half-mapped (its whole span under one read-only mapping, its data not yet relocated) and its
/// relocated data discarded a moment later, which crashed the loader in the test suite (a pointer read back as its
/// file offset, 0x94f). Linux with glibc only; elsewhere a no-op.
package enum MappedLibraryPages {
    /// Unmaps the clean library pages now. Returns the bytes of the ranges unmapped (resident or not). Cost: one walk
    /// of the loader's list and one `madvise` per segment, well under a millisecond.
    @discardableResult
    package static func release() -> Int { Int(koten_release_library_pages()) }
}
