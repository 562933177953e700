import Foundation

/// The batch as a pipeline (issue 28; docs/performance.md, "The batch as a pipeline"): while one page is
/// recognised, the next is opened, decoded and detected, so what recognition leaves of the cores (its serial
/// parts, a long line read alone at the end) reads the next page.
///
/// At most two pages are in flight, and at most one of them before its lines are found: `BatchRunner` starts the
/// next page when the current one's lines are found (its `LineProgress` first report: detection and crops done) or
/// it ends. Only while the engine's budget holds two pages: under an explicit budget below the machine's memory
/// (`ModelStore.hasTightBudget`), or in the window after its store's memory-pressure release
/// (`ModelStore.pressureMark`), pages are read one at a time, since each stage's room is sized for one page. Events
/// stay in task order: a page read ahead reports nothing until it is the current page; its line counts are held and
/// passed on then, in order.
final class PagesInFlight<Output: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var pages: [Int: Page] = [:]

    /// One page's read, running in its own task.
    final class Page: @unchecked Sendable {
        private let lock = NSLock()
        private var found = false
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var forward: (@Sendable (LineProgress) -> Void)?
        private var held: [LineProgress] = []
        fileprivate var task: Task<Output, Error>?

        /// The read's result; rethrows its error (`CancellationError` when it was cancelled).
        var value: Output {
            get async throws {
                guard let task else { throw CancellationError() }
                return try await task.value
            }
        }

        /// The page is the batch's current one: its line counts go to `report` from now on, those held first.
        /// Called once.
        func makeCurrent(_ report: @escaping @Sendable (LineProgress) -> Void) {
            lock.withLock {
                forward = report
                held.forEach(report)
                held = []
            }
        }

        /// Returns once the page's lines are found or its read has ended (read, failed or cancelled).
        func waitUntilFound() async {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let now = lock.withLock {
                    if found { return true }
                    waiters.append(c)
                    return false
                }
                if now { c.resume() }
            }
        }

        /// The read's line observer (calls come one at a time, in order: `LineCounter`).
        fileprivate func report(_ progress: LineProgress) {
            lock.withLock {
                if let forward { forward(progress) } else { held.append(progress) }
            }
            markFound()
        }

        fileprivate func markFound() {
            let waiting = lock.withLock {
                found = true
                defer { waiters = [] }
                return waiters
            }
            for w in waiting { w.resume() }
        }
    }

    /// Starts reading page `index` with `read`, which is given the line observer to bind (`LineProgress.observing`).
    @discardableResult
    func start(_ index: Int, _ read: @escaping @Sendable (_ observer: @escaping @Sendable (LineProgress) -> Void) async throws -> Output) -> Page {
        let page = Page()
        let task = Task {
            defer { page.markFound() }
            return try await read { page.report($0) }
        }
        page.task = task
        lock.withLock { pages[index] = page }
        return page
    }

    /// Page `index`, if it was started (ahead of its turn or as the current page) and is not `done`.
    func page(_ index: Int) -> Page? { lock.withLock { pages[index] } }

    /// Page `index`'s result was taken: it is no longer held.
    func done(_ index: Int) { _ = lock.withLock { pages.removeValue(forKey: index) } }

    /// Cancels every page still held (the current one and one started ahead, when the batch stops) and waits
    /// for them to end, so nothing of them is written after the batch returns.
    func cancelAll() async {
        let held = lock.withLock {
            defer { pages = [:] }
            return Array(pages.values)
        }
        for page in held { page.task?.cancel() }
        for page in held { _ = try? await page.value }
    }

    /// Cancels every page held now, without waiting (the batch's task was cancelled: `withTaskCancellationHandler`).
    func cancelNow() {
        for page in lock.withLock({ Array(pages.values) }) { page.task?.cancel() }
    }
}
