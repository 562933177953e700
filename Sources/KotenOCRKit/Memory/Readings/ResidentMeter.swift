/// What the model store reads of the process's memory: resident bytes now, and the highest resident bytes
/// while a run executes (its activation peak, docs/memory-design.md "What dominates peak memory").
///
/// `ProcessResidentMeter` reads this process; the store's unit tests give it a meter of a simulated process whose
/// sessions have set sizes, so the budget rules are checked without ONNX Runtime.
protocol ResidentMeter: Sendable {
    /// Resident bytes of the process now.
    func residentBytes() -> Int
    /// Runs `body` and returns its result with the highest resident bytes seen while it ran (its final
    /// reading included). Rethrows what `body` throws.
    func peak<T>(during body: () throws -> T) rethrows -> (value: T, peakBytes: Int)
    /// Returns what the process holds without needing it — the allocator's free pages, clean library pages — before
    /// the store refuses for want of room (the lean path's last step). Nothing by default.
    func returnFreeMemory()
}

extension ResidentMeter {
    func returnFreeMemory() {}
}

/// This process: `ResidentReader` (/proc/self/statm on Linux, the footprint elsewhere), sampled by a
/// `PeakSampler` thread during a measured run.
struct ProcessResidentMeter: ResidentMeter {
    func residentBytes() -> Int { ResidentReader.bytes() }

    func returnFreeMemory() {
        AllocatorPolicy.trim()
        MappedLibraryPages.release()
    }

    func peak<T>(during body: () throws -> T) rethrows -> (value: T, peakBytes: Int) {
        let sampler = PeakSampler()
        sampler.start()
        let value: T
        do {
            value = try body()
        } catch {
            _ = sampler.stop()
            throw error
        }
        return (value, sampler.stop())
    }
}
