import Foundation
import KotenOCRKit

/// The server's test hooks (docs/serve.md, "Test hooks"): `KOTEN_OCR_TEST_SERVE_HOLD_AFTER_PAGES=N` stops the job
/// worker for good once N pages have been read by this process, so a test can `kill -9` it at a known point;
/// `KOTEN_OCR_TEST_FAIL_FORMAT=FORMAT` makes that format fail on every page of a job, as for the CLI. The corpus's
/// own hook (`KOTEN_OCR_TEST_CORPUS_FULL_WHILE`) is `JobCorpus.fullWhile`.
enum TestHooks {
    static let holdAfterPages: Int? = ProcessInfo.processInfo.environment["KOTEN_OCR_TEST_SERVE_HOLD_AFTER_PAGES"].flatMap { Int($0) }
    static let failingFormat: ResultFormat? = ProcessInfo.processInfo.environment["KOTEN_OCR_TEST_FAIL_FORMAT"]
        .flatMap(ResultFormat.init(rawValue:))
    private static let lock = NSLock()
    nonisolated(unsafe) private static var pages = 0

    static func countPage() -> Int { lock.withLock { pages += 1; return pages } }

    static func holdForever() -> Never {
        while true { Thread.sleep(forTimeInterval: 3600) }
    }
}
