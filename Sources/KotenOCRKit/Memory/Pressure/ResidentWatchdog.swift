import Foundation

/// Raises pressure when the process's resident memory crosses a fraction of the budget (Linux and Darwin).
///
/// A background thread reads the resident size every `interval` (one small /proc read); it raises
/// `.warning` above `warningFraction` × budget and `.critical` above `criticalFraction` × budget, once per
/// crossing (it re-arms when memory falls back below the warning level).
package final class ResidentWatchdog: MemoryPressureSource, @unchecked Sendable {
    public let name = "watchdog"
    public let budgetBytes: Int
    public let warningFraction: Double
    public let criticalFraction: Double
    public let interval: TimeInterval
    private let lock = NSLock()
    private var running = false

    public init(budgetBytes: Int, warningFraction: Double = 0.85, criticalFraction: Double = 0.95, interval: TimeInterval = 0.05) {
        self.budgetBytes = budgetBytes
        self.warningFraction = warningFraction
        self.criticalFraction = criticalFraction
        self.interval = interval
    }

    public func start(_ handler: @escaping @Sendable (MemoryPressureEvent) -> Void) throws {
        lock.lock()
        if running { lock.unlock(); return }
        running = true
        lock.unlock()
        let warning = Int(Double(budgetBytes) * warningFraction), critical = Int(Double(budgetBytes) * criticalFraction)
        let thread = Thread { [self] in
            var raised: MemoryPressureEvent.Level?
            while lock.withLock({ running }) {
                let rss = ResidentReader.bytes()
                let level: MemoryPressureEvent.Level? = rss >= critical ? .critical : rss >= warning ? .warning : nil
                if let level, level != raised, raised != .critical {
                    handler(MemoryPressureEvent(source: name, level: level, residentBytes: rss))
                }
                raised = level ?? nil
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.stackSize = 64 << 10
        thread.start()
    }

    public func stop() { lock.withLock { running = false } }
}
