#if canImport(Darwin)
import Dispatch
import Foundation

/// The system's memory-pressure notifications on Apple platforms (`DispatchSource.makeMemoryPressureSource`).
package final class DispatchPressureSource: MemoryPressureSource, @unchecked Sendable {
    public let name = "dispatch"
    private let lock = NSLock()
    private var source: DispatchSourceMemoryPressure?

    public init() {}

    public func start(_ handler: @escaping @Sendable (MemoryPressureEvent) -> Void) throws {
        let s = DispatchSource.makeMemoryPressureSource(eventMask: [.warning, .critical], queue: .global(qos: .utility))
        s.setEventHandler { [weak s] in
            let critical = s?.data.contains(.critical) ?? false
            handler(MemoryPressureEvent(source: "dispatch", level: critical ? .critical : .warning))
        }
        s.resume()
        lock.withLock { source = s }
    }

    public func stop() { lock.withLock { source?.cancel(); source = nil } }
}
#endif

#if canImport(UIKit)
import UIKit

/// UIKit's memory warning (`UIApplication.didReceiveMemoryWarningNotification`): the app's last chance to free
/// memory before jetsam.
package final class UIKitMemoryWarningSource: MemoryPressureSource, @unchecked Sendable {
    public let name = "uikit"
    private let lock = NSLock()
    private var token: NSObjectProtocol?

    public init() {}

    public func start(_ handler: @escaping @Sendable (MemoryPressureEvent) -> Void) throws {
        let t = NotificationCenter.default.addObserver(forName: UIApplication.didReceiveMemoryWarningNotification,
                                                       object: nil, queue: nil) { _ in
            handler(MemoryPressureEvent(source: "uikit", level: .critical))
        }
        lock.withLock { token = t }
    }

    public func stop() {
        lock.withLock {
            if let token { NotificationCenter.default.removeObserver(token) }
            token = nil
        }
    }
}
#endif
