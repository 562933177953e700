import Foundation

/// Whether memory is tight in this process now, and so whether freed memory must go back to the system at once:
/// the C allocator's free pages at every stage boundary (`StageBoundary`) and ONNX Runtime's CPU arena after every
/// run. Both cost system time (pages handed back are faulted in again by the next stage), so they happen only
/// where the budget needs them (docs/performance.md, "System time"):
///
/// - while a store with a tight budget exists (`MemoryBudget.isTight`: an explicit budget below the machine's
///   memory), and
/// - for `pressureWindow` seconds after a memory-pressure release (`MemoryPressureMonitor`).
///
/// Otherwise memory goes back where it matters without asking: glibc's fixed mmap threshold returns every large
/// block when it is freed (`AllocatorPolicy`), a page's recognition ends with one arena release, evictions and
/// pressure releases trim. Process-wide, as the allocator is.
package enum MemoryTightness {
    /// How long after a pressure release every boundary keeps returning memory.
    static let pressureWindow: TimeInterval = 30

    private static let state = State()

    /// Whether freed memory should go back to the system at every boundary now.
    package static var isTight: Bool { state.isTight(now: Date()) }

    /// A stage boundary: returns the allocator's free pages when memory is tight.
    static func stageEnded() { if isTight { AllocatorPolicy.trim() } }

    /// A store with a tight budget came into being (`leave()` when it goes).
    static func enterTightBudget() { state.change { $0.tightStores += 1 } }
    static func leaveTightBudget() { state.change { $0.tightStores = max(0, $0.tightStores - 1) } }

    /// Memory pressure was just released: boundaries return memory for a while.
    static func notePressure(at date: Date = Date()) { state.change { $0.pressureUntil = date.addingTimeInterval(pressureWindow) } }

    private final class State: @unchecked Sendable {
        struct Values {
            var tightStores = 0
            var pressureUntil = Date.distantPast
        }
        private let lock = NSLock()
        private var values = Values()

        func change(_ body: (inout Values) -> Void) { lock.withLock { body(&values) } }
        func isTight(now: Date) -> Bool { lock.withLock { values.tightStores > 0 || values.pressureUntil > now } }
    }
}
