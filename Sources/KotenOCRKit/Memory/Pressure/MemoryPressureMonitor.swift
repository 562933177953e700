import Foundation

/// What one pressure event released.
package struct PressureRelease: Sendable, Equatable {
    public var event: MemoryPressureEvent
    /// Sum of the released models' measured resident bytes.
    public var releasedModelBytes: Int
    /// Process resident bytes before and after the release.
    public var residentBefore: Int
    public var residentAfter: Int
    /// Time from the event to the memory being returned.
    public var seconds: Double

    /// Resident bytes actually returned to the system.
    public var freedBytes: Int { max(0, residentBefore - residentAfter) }
}

/// Listens to memory-pressure sources and, on pressure, releases the model store's inactive modes and the
/// allocator's free pages, then reports what was freed. One abstraction over every source: Linux PSI and
/// the resident watchdog, Apple's dispatch source and UIKit's warning, and a manual trigger.
package final class MemoryPressureMonitor: @unchecked Sendable {
    public let store: ModelStore
    private let lock = NSLock()
    private var sources: [any MemoryPressureSource] = []
    private var observers: [@Sendable (PressureRelease) -> Void] = []
    private var releases: [PressureRelease] = []

    public init(store: ModelStore) { self.store = store }

    /// The platform's default sources: on Linux the PSI trigger (where the kernel allows it) and a resident
    /// watchdog against the store's budget; on Apple platforms the dispatch source (and UIKit's warning).
    public static func defaultSources(budgetBytes: Int) -> [any MemoryPressureSource] {
        var list: [any MemoryPressureSource] = [ResidentWatchdog(budgetBytes: budgetBytes)]
        #if os(Linux)
        list.append(PSIPressureSource())
        #endif
        #if canImport(Darwin)
        list.append(DispatchPressureSource())
        #endif
        #if canImport(UIKit)
        list.append(UIKitMemoryWarningSource())
        #endif
        return list
    }

    /// Starts `sources`; returns the names of those that could not start (e.g. PSI without permission).
    @discardableResult
    public func start(_ sources: [any MemoryPressureSource]) -> [String] {
        var failed: [String] = []
        for s in sources {
            do {
                try s.start { [weak self] event in self?.handle(event) }
                lock.withLock { self.sources.append(s) }
            } catch {
                failed.append("\(s.name): \(error)")
            }
        }
        return failed
    }

    public func stop() {
        let list = lock.withLock { () -> [any MemoryPressureSource] in
            let l = sources
            sources = []
            return l
        }
        list.forEach { $0.stop() }
    }

    /// Calls `observer` after every release.
    public func observe(_ observer: @escaping @Sendable (PressureRelease) -> Void) {
        lock.withLock { observers.append(observer) }
    }

    /// Every release so far.
    public var history: [PressureRelease] { lock.withLock { releases } }

    private func handle(_ event: MemoryPressureEvent) {
        Task { await self.release(for: event) }
    }

    /// Releases inactive modes' models, free allocator pages and clean library pages (`MappedLibraryPages`) now, and
    /// reports it.
    @discardableResult
    public func release(for event: MemoryPressureEvent) async -> PressureRelease {
        let start = Date()
        let before = ResidentReader.bytes()
        MemoryTightness.notePressure()
        store.pressureMark.note()
        let released = await store.releaseInactive(reason: "memory pressure (\(event.source), \(event.level.rawValue))")
        AllocatorPolicy.trim()
        MappedLibraryPages.release()
        let report = PressureRelease(event: event, releasedModelBytes: released, residentBefore: before,
                                     residentAfter: ResidentReader.bytes(), seconds: Date().timeIntervalSince(start))
        let obs = lock.withLock { () -> [@Sendable (PressureRelease) -> Void] in
            releases.append(report)
            return observers
        }
        obs.forEach { $0(report) }
        return report
    }
}
