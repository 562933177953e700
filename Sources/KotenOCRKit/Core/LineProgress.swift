import Foundation

/// How far the reading of one page is: how many lines its detector found and how many of them are read.
/// Reported by `KotenOCR.read` to the observer bound with `LineProgress.observing` (what
/// `KotenOCR.events(reading:)` and `BatchRunner.events(_:)` turn into events): once when the lines are found
/// (`done` 0), then after each line is read, in order. The NDL cascade reads a few long lines again with a
/// wider model; `done` stops at `total` all the same. A `ppocr` page found turned is read again turned upright,
/// and its lines are reported found again (`done` 0) for that reading.
public struct LineProgress: Sendable, Equatable {
    /// Lines found on the page.
    public let total: Int
    /// Lines read so far (0…`total`).
    public let done: Int

    public init(total: Int, done: Int) {
        self.total = total
        self.done = done
    }

    /// Runs `body`; every page read in it (by this task and its child tasks) reports its lines to `observer`.
    /// `observer` is called from the tasks reading lines, one call at a time: it must not block.
    public static func observing<T>(_ observer: @escaping @Sendable (LineProgress) -> Void,
                                    isolation: isolated (any Actor)? = #isolation,
                                    _ body: () async throws -> T) async rethrows -> T {
        try await $observer.withValue(LineObserver(observer), operation: body, isolation: isolation)
    }

    /// The observer of the pages read in this task, if any. (A class holding the closure: a task-local value of
    /// function type crashed in optimized builds, Swift 6.3.)
    @TaskLocal static var observer: LineObserver?
    /// The page being read in this task (bound by `KotenOCR` for each page while an observer is bound).
    @TaskLocal static var current: LineCounter?

    /// Runs `body` as one page: its pipeline's `found` and `lineRead` calls count for it alone; when it
    /// returns, every line counts as read (lines with nothing to read, e.g. an empty crop, make no call).
    static func page<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        guard let observer else { return try await body() }
        let counter = LineCounter(observer.report)
        let result = try await $current.withValue(counter, operation: body, isolation: isolation)
        counter.finish()
        return result
    }

    /// A pipeline found `lines` lines to read on the current page.
    static func found(_ lines: Int) { current?.found(lines) }

    /// A pipeline read one line of the current page.
    static func lineRead() { current?.lineRead() }

    /// A pipeline read `count` lines of the current page at once (a batched run), reported one by one.
    static func linesRead(_ count: Int) {
        guard let current else { return }
        for _ in 0..<max(0, count) { current.lineRead() }
    }
}

/// Who hears the line progress of the pages read in a task.
final class LineObserver: Sendable {
    let report: @Sendable (LineProgress) -> Void

    init(_ report: @escaping @Sendable (LineProgress) -> Void) { self.report = report }
}

/// One page's line counts, reported to an observer in order.
final class LineCounter: @unchecked Sendable {
    private let observer: @Sendable (LineProgress) -> Void
    private let lock = NSLock()
    private var total = 0
    private var done = 0

    init(_ observer: @escaping @Sendable (LineProgress) -> Void) { self.observer = observer }

    func found(_ lines: Int) {
        lock.lock()
        defer { lock.unlock() }
        total = lines
        done = 0
        observer(LineProgress(total: total, done: 0))
    }

    func lineRead() {
        lock.lock()
        defer { lock.unlock() }
        guard done < total else { return }
        done += 1
        observer(LineProgress(total: total, done: done))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard done < total else { return }
        done = total
        observer(LineProgress(total: total, done: done))
    }
}
