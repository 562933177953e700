import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Cancelling the task that reads a page or a batch (issue 14): the page stops within about one model run,
/// the batch between pages, and a cancelled batch resumes to the results an uncancelled one writes. Nothing
/// here measures time: what is asserted is what ran after the cancel.
@Suite("Cancellation and progress events", .serialized)
struct CancellationTests {
    static func engine(jobs: Int) throws -> KotenOCR {
        try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(),
                                                     maxConcurrentInferences: jobs, watchMemoryPressure: false))
    }

    @Test("a 12 MP page cancelled 0.3 s in throws CancellationError, and no model run starts after the cancel")
    func cancelPage() async throws {
        let photo = try TestPaths.temporaryDirectory("cancel-page").appendingPathComponent("photo.jpg")
        try TestPhoto.make12MP(from: TestPaths.image("ndlocr-lite/digidepo_11048278_po_geppo1803_00021.jpg"), to: photo)
        let engine = try Self.engine(jobs: 2)
        let source = try engine.open(photo)
        #expect(source.width * source.height >= 12_000_000)
        let lines = LatestLines()
        let reading = Task {
            try await LineProgress.observing({ lines.note($0) }) { try await engine.read(source) }
        }
        try await Task.sleep(for: .milliseconds(300))
        reading.cancel()
        let cancelled = ContinuousClock.now
        let runsBeforeCancel = await engine.store.limiter.started
        let outcome = await reading.result
        let waited = ContinuousClock.now - cancelled
        let runsAfterCancel = await engine.store.limiter.started - runsBeforeCancel
        switch outcome {
        case .success(let page): Issue.record("the page was read to the end (\(page.lines.count) lines) despite the cancel")
        case .failure(let error): #expect(error is CancellationError, "\(error)")
        }
        #expect(runsAfterCancel == 0)
        let seen = lines.latest
        #expect(seen.map { $0.done < $0.total } ?? true, "every line was read: \(String(describing: seen))")
        print("CANCEL 12 MP page: CancellationError \(waited) after the cancel; \(runsBeforeCancel) model runs before it, "
              + "\(runsAfterCancel) after; lines read \(seen.map { "\($0.done)/\($0.total)" } ?? "none (still detecting)")")
        // The engine is fine afterwards (no slot of the limiter kept by the cancelled runs): a page reads to the end.
        let page = try await engine.read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
        #expect(page.lines.count > 5)
    }

    @Test("a batch cancelled in its second page keeps the first, leaves the second 'started', and resumes to identical results")
    func cancelBatchAndResume() async throws {
        let root = try TestPaths.temporaryDirectory("cancel-batch")
        let inputs = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try ImageWriter.save(try BatchFixtures.crop(0), to: inputs.appendingPathComponent("a.png"))
        try FileManager.default.copyItem(at: TestPaths.image("ndlocr-lite-rs/scaned0.png"), to: inputs.appendingPathComponent("b.png"))
        try ImageWriter.save(try BatchFixtures.crop(9), to: inputs.appendingPathComponent("c.png"))
        // One model run at a time: the lines of a page are read one after another.
        let engine = try Self.engine(jobs: 1)
        func options(_ name: String, resume: Bool = false) -> BatchOptions {
            BatchOptions(outputDirectory: root.appendingPathComponent(name), formats: [.txt, .json], resume: resume)
        }

        // Uncancelled, through the event stream: pages in order, each page's lines counted up to its total.
        let reference = try BatchPlan.prepare([inputs.path], options: options("reference"))
        var events: [BatchEvent] = []
        for await event in BatchRunner(engine: engine, options: options("reference")).events(reference) { events.append(event) }
        guard case .finished(let final)? = events.last else { Issue.record("no .finished event last"); return }
        #expect(final.read == 3 && final.failures == 0)
        for task in reference.tasks {
            let counts = events.compactMap { event -> LineProgress? in
                if case .linesRead(let t, let lines, _) = event, t == task { return lines }
                return nil
            }
            let read = events.compactMap { event -> PageTask? in if case .pageRead(let t, _, _) = event { return t }; return nil }
            #expect(counts.first?.done == 0, "\(task.key): \(counts)")
            #expect(counts.map(\.done) == counts.map(\.done).sorted() && counts.last.map { $0.done == $0.total } == true,
                    "\(task.key): \(counts)")
            #expect(read.contains(task))
        }

        // Cancelled when the first line of b.png has been read.
        let plan = try BatchPlan.prepare([inputs.path], options: options("cut"))
        let second = try #require(plan.tasks.dropFirst().first)
        let canceller = Canceller()
        let runner = BatchRunner(engine: engine, options: options("cut"))
        let batch = Task {
            try await runner.run(plan) { event in
                if case .linesRead(let task, let lines, _) = event, task == second, lines.done >= 1 {
                    canceller.cancel()
                }
            }
        }
        canceller.set { batch.cancel() }
        let outcome = await batch.result
        if case .success = outcome { Issue.record("the batch ran to the end despite the cancel") }
        if case .failure(let error) = outcome { #expect(error is CancellationError, "\(error)") }
        let cut = root.appendingPathComponent("cut")
        let records = BatchManifest.load(from: cut)
        #expect(records[BatchManifest.Key(plan.tasks[0].key)]?.state == .done)
        #expect(records[BatchManifest.Key(second.key)]?.state == .started)
        // The third page was started ahead of its turn (the batch reads the next page while one is recognised,
        // `PagesInFlight`) or not at all: never done, so the resume reads it.
        #expect(records[BatchManifest.Key(plan.tasks[2].key)].map { $0.state == .started } ?? true)
        #expect(try BatchFixtures.snapshot(cut).keys.sorted() == ["a.json", "a.txt"])

        // Resumed: the first page is kept, the others read; the folder equals the uncancelled one.
        let resumed = try BatchPlan.prepare([inputs.path], options: options("cut", resume: true))
        #expect(resumed.alreadyDone == 1 && resumed.tasks.map(\.key) == Array(plan.tasks.dropFirst()).map(\.key))
        let progress = try await BatchRunner(engine: engine, options: options("cut", resume: true)).run(resumed) { _ in }
        #expect(progress.read == 2 && progress.failures == 0)
        #expect(try BatchFixtures.snapshot(cut) == BatchFixtures.snapshot(root.appendingPathComponent("reference")))
    }

    @Test("one page's events: its line count first, each line read in order, then the page")
    func pageEvents() async throws {
        let engine = try Self.engine(jobs: 2)
        var lines: [LineProgress] = []
        var page: PageResult?
        for try await event in engine.events(reading: try engine.open(TestPaths.image("ndlocr-lite-rs/scaned0.png"))) {
            switch event {
            case .lines(let progress): lines.append(progress)
            case .read(let result): page = result
            }
        }
        let result = try #require(page)
        let total = try #require(lines.first?.total)
        #expect(lines.first?.done == 0 && total >= result.lines.count && total > 5)
        #expect(lines.map(\.done) == Array(0...total) && lines.allSatisfy { $0.total == total })
    }
}

/// The last line progress an observer heard.
final class LatestLines: @unchecked Sendable {
    private let lock = NSLock()
    private var value: LineProgress?
    func note(_ progress: LineProgress) { lock.withLock { value = progress } }
    var latest: LineProgress? { lock.withLock { value } }
}

/// Cancels a task from inside its own events, whether the event comes before or after the task is known.
final class Canceller: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?
    private var requested = false

    func set(_ cancel: @escaping @Sendable () -> Void) {
        lock.withLock {
            action = cancel
            if requested { cancel() }
        }
    }

    func cancel() {
        lock.withLock {
            requested = true
            action?()
        }
    }
}
