import Foundation

/// Whether memory is tight in this process now, and so whether ONNX Runtime's CPU arena must go back to the system
/// after every run. That cost the most system time of a page (the arena's chunks unmapped after each of a page's
/// dozens of runs and faulted in again by the next), so it happens only where the budget needs it
/// (docs/performance.md, "System time"):
///
/// - while a store with a tight budget exists (`MemoryBudget.isTight`: an explicit budget below the machine's
///   memory), and
/// - for `pressureWindow` seconds after a memory-pressure release (`MemoryPressureMonitor`).
///
/// Otherwise a stage's last run hands its arena back (`ModelHandle.run`'s `releaseArena`), once per stage.
/// Process-wide.
package enum MemoryTightness {
    /// How long after a pressure release every boundary keeps returning memory.
    static let pressureWindow: TimeInterval = 30

    private static let state = State()
    /// The process's last pressure release (each store keeps its own as well: `ModelStore.pressureMark`).
    private static let pressure = PressureMark()

    /// Whether every run should hand its arena back now.
    package static var isTight: Bool { state.isTight || pressure.isRecent }

    /// A store with a tight budget came into being (`leave()` when it goes).
    static func enterTightBudget() { state.change { $0.tightStores += 1 } }
    static func leaveTightBudget() { state.change { $0.tightStores = max(0, $0.tightStores - 1) } }

    /// Memory pressure was just released: boundaries return memory for a while.
    static func notePressure(at date: Date = Date()) { pressure.note(at: date) }

    private final class State: @unchecked Sendable {
        struct Values {
            var tightStores = 0
        }
        private let lock = NSLock()
        private var values = Values()

        func change(_ body: (inout Values) -> Void) { lock.withLock { body(&values) } }
        var isTight: Bool { lock.withLock { values.tightStores > 0 } }
    }
}

/// A last memory-pressure release (the process's, or one store's): whether it was within
/// `MemoryTightness.pressureWindow` seconds.
final class PressureMark: @unchecked Sendable {
    private let lock = NSLock()
    private var until = Date.distantPast

    /// A pressure release happened at `date`.
    func note(at date: Date = Date()) { lock.withLock { until = date.addingTimeInterval(MemoryTightness.pressureWindow) } }

    /// Whether the last release is less than `MemoryTightness.pressureWindow` seconds old.
    var isRecent: Bool { lock.withLock { until > Date() } }
}
