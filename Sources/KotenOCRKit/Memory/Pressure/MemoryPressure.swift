import Foundation

/// A signal that memory is running short, from any source.
package struct MemoryPressureEvent: Sendable, Equatable {
    public enum Level: String, Sendable, Codable { case warning, critical }
    /// Which source raised it: "psi", "watchdog", "manual", "dispatch", "uikit".
    public var source: String
    public var level: Level
    /// Resident bytes when it was raised.
    public var residentBytes: Int
    public var date: Date

    public init(source: String, level: Level, residentBytes: Int = ResidentReader.bytes(), date: Date = Date()) {
        self.source = source
        self.level = level
        self.residentBytes = residentBytes
        self.date = date
    }
}

/// Something that can tell the engine memory is short. Sources call `handler` from any thread.
package protocol MemoryPressureSource: AnyObject, Sendable {
    /// A short name for reports ("psi", "watchdog", ...).
    var name: String { get }
    /// Starts watching. Throws `MemoryPressureError.unavailable` where the platform has no such signal.
    func start(_ handler: @escaping @Sendable (MemoryPressureEvent) -> Void) throws
    func stop()
}

package enum MemoryPressureError: Error, Equatable, CustomStringConvertible {
    case unavailable(source: String, reason: String)

    public var description: String {
        switch self {
        case .unavailable(let source, let reason): return "memory-pressure source \(source) unavailable: \(reason)"
        }
    }
}

/// A pressure source triggered by code: for tests, benchmarks, and apps with their own signal.
package final class ManualPressureSource: MemoryPressureSource, @unchecked Sendable {
    public let name = "manual"
    private let lock = NSLock()
    private var handler: (@Sendable (MemoryPressureEvent) -> Void)?

    public init() {}

    public func start(_ handler: @escaping @Sendable (MemoryPressureEvent) -> Void) throws {
        lock.withLock { self.handler = handler }
    }

    public func stop() { lock.withLock { handler = nil } }

    /// Raises a pressure event now (delivered synchronously on the caller's thread).
    public func trigger(_ level: MemoryPressureEvent.Level = .critical) {
        let h = lock.withLock { handler }
        h?(MemoryPressureEvent(source: name, level: level))
    }
}
