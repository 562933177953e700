import Foundation

/// Samples resident memory on a background thread while work runs, to find the peak a single run adds
/// (a model's activation memory) without resetting the process's kernel high-water mark.
/// Cost: one read of /proc/self/statm per interval, only while a measurement is running.
final class PeakSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let interval: TimeInterval

    init(interval: TimeInterval = 0.001) { self.interval = interval }

    /// Starts sampling; call `stop()` to get the highest resident bytes seen (including the final reading).
    func start() {
        peak = ResidentReader.bytes()
        let thread = Thread { [self] in
            while true {
                let now = ResidentReader.bytes()
                lock.lock()
                peak = max(peak, now)
                let go = running
                lock.unlock()
                if !go { break }
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.stackSize = 64 << 10
        thread.start()
    }

    func stop() -> Int {
        let last = ResidentReader.bytes()
        lock.lock()
        running = false
        peak = max(peak, last)
        let result = peak
        lock.unlock()
        return result
    }
}
