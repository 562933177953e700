import Foundation

/// When the page being read started.
final class StartClock: @unchecked Sendable {
    private let lock = NSLock()
    private var start = Date()
    func reset() { lock.withLock { start = Date() } }
    var seconds: Double { lock.withLock { Date().timeIntervalSince(start) } }
}

/// The server's test hook (docs/serve.md, "Test hooks"): `KOTEN_OCR_TEST_SERVE_HOLD_AFTER_PAGES=N` stops the job
/// worker for good once N pages have been read by this process, so a test can `kill -9` it at a known point.
enum TestHooks {
    static let holdAfterPages: Int? = ProcessInfo.processInfo.environment["KOTEN_OCR_TEST_SERVE_HOLD_AFTER_PAGES"].flatMap { Int($0) }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var pages = 0

    static func countPage() -> Int { lock.withLock { pages += 1; return pages } }

    static func holdForever() -> Never {
        while true { Thread.sleep(forTimeInterval: 3600) }
    }
}
