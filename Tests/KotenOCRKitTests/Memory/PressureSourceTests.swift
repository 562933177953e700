import Foundation
import Testing
@testable import KotenOCRKit

/// Collects events delivered on any thread.
final class EventBox: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [MemoryPressureEvent] = []
    func add(_ e: MemoryPressureEvent) { lock.withLock { events.append(e) } }
    var all: [MemoryPressureEvent] { lock.withLock { events } }
}

@Suite("Memory pressure sources")
struct PressureSourceTests {
    @Test("the resident watchdog raises critical when resident memory is over the budget, once per crossing")
    func watchdog() async throws {
        let box = EventBox()
        let dog = ResidentWatchdog(budgetBytes: 1 << 20, interval: 0.005)  // 1 MiB: always over
        try dog.start { box.add($0) }
        try await Task.sleep(for: .milliseconds(100))
        dog.stop()
        #expect(box.all.count == 1)
        #expect(box.all.first?.level == .critical)
        #expect(box.all.first?.source == "watchdog")
    }

    @Test("the watchdog stays quiet under the budget")
    func watchdogQuiet() async throws {
        let box = EventBox()
        let dog = ResidentWatchdog(budgetBytes: 1 << 40, interval: 0.005)
        try dog.start { box.add($0) }
        try await Task.sleep(for: .milliseconds(50))
        dog.stop()
        #expect(box.all.isEmpty)
    }

    @Test("a manual trigger reaches the monitor, which releases and records it")
    func manualThroughMonitor() async throws {
        let store = try ModelStore(budgetBytes: 8 << 30)
        let monitor = MemoryPressureMonitor(store: store)
        let source = ManualPressureSource()
        monitor.start([source])
        source.trigger()
        for _ in 0..<200 where monitor.history.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        monitor.stop()
        #expect(monitor.history.count == 1)
        #expect(monitor.history.first?.event.source == "manual")
    }

    #if os(Linux)
    @Test("the PSI trigger starts on this kernel's memory pressure file and stops cleanly")
    func psi() throws {
        let file = try #require(PSIPressureSource.pressureFile(), "no PSI file: kernel without CONFIG_PSI")
        #expect(file.hasSuffix("memory.pressure") || file == "/proc/pressure/memory")
        let source = PSIPressureSource()
        do {
            try source.start { _ in }
            source.stop()
        } catch let e as MemoryPressureError {
            // Unprivileged processes may be refused a trigger; the error must say which file and why.
            #expect(e.description.contains(file))
        }
    }
    #endif

    @Test("budget sizes parse in decimal and binary units")
    func budgets() {
        #expect(MemoryBudget.parse("200MB") == 200_000_000)
        #expect(MemoryBudget.parse("1.5GB") == 1_500_000_000)
        #expect(MemoryBudget.parse("512MiB") == 512 << 20)
        #expect(MemoryBudget.parse("300000000") == 300_000_000)
        #expect(MemoryBudget.parse("lots") == nil)
        #expect(MemoryBudget.parse("-5MB") == nil)
    }
}
