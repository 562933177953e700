import Foundation
import Testing
@testable import KotenOCRKit

/// libvips' warnings are kept in one process-wide buffer (Sources/CVipsShim/shim.c) that every open forgets and
/// every failure takes: pages decoded at once take it from several threads.
@Suite("libvips warning buffer")
struct VipsWarningTests {
    /// The buffer's lock must be one ThreadSanitizer sees: under `make test-tsan` (docs/reliability.md,
    /// "Sanitizers") a lock it cannot see (GLib's GMutex) made each pair of concurrent takes a reported data race,
    /// which fails the run. Without a sanitizer it checks that the decodes beside the takes still read the page.
    @Test("taken from eight tasks at once while pages are opened and decoded")
    func concurrentTakes() async throws {
        #expect(Vips.start())
        let page = TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg")
        let widths = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 { Vips.forgetWarning() }
                    return try ImageSource(url: page).decode().width
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(widths == Array(repeating: 2048, count: 8))
    }
}
