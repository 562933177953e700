import Foundation
import Testing
@testable import KotenOCRKit

/// A reader without a model that notes, at each line it reads, the widths of the pages the detector was given so
/// far. With `waitFor`, its first line waits until the detector has been given a page of that width (at most a
/// minute): the next page of a batch read ahead is detected while this one is recognised, one read one page at a
/// time never is.
private final class WatchingReader: LineReader, @unchecked Sendable {
    let detector: FixedDetector<Detection>
    let waitFor: Int?
    private let lock = NSLock()
    private var seen: [[Int]] = []
    var detectedWidthsAtEachLine: [[Int]] { lock.withLock { seen } }

    init(detector: FixedDetector<Detection>, waitFor: Int?) {
        self.detector = detector
        self.waitFor = waitFor
    }

    func read(_ crop: PixelBox, of page: RGBImage, store: ModelStore) async throws -> RecognisedText {
        if let waitFor, lock.withLock({ seen.isEmpty }) {
            for _ in 0..<600 where !detector.pageSizes.contains(where: { $0.width == waitFor }) {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
        lock.withLock { seen.append(detector.pageSizes.map(\.width)) }
        return RecognisedText(characters: [.init(text: "行", confidence: 1)])
    }
}

/// The batch events, collected from the runner's callbacks.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    var all: [String] { lock.withLock { events } }

    func add(_ event: BatchEvent) {
        let text: String
        switch event {
        case .pageStarted(let task, _): text = "started \(task.input.url.lastPathComponent)"
        case .linesRead(let task, let lines, _): text = "lines \(task.input.url.lastPathComponent) \(lines.done)/\(lines.total)"
        case .pageRead(let task, _, _): text = "read \(task.input.url.lastPathComponent)"
        case .failed(let failure, _): text = "failed \(failure.path)"
        default: return
        }
        lock.withLock { events.append(text) }
    }
}

/// The batch as a pipeline (issue 28): the next page is decoded and detected while the current one is recognised,
/// when the engine's budget holds two pages; the events stay in page order either way.
@Suite("Batch read-ahead")
struct ReadAheadTests {
    static let first = "ndlocr-lite-rs/scaned0.png", second = "ndlocr-lite/yokogaki2026-04-24-103617.png"

    /// Reads the two pages in one batch with the supplied detector and reader; the events and the page widths.
    private static func run(budget: Int?, underPressure: Bool = false, reader: (FixedDetector<Detection>) -> WatchingReader)
        async throws -> (events: [String], reader: WatchingReader, widths: [Int]) {
        let line = Quad(Point(x: 20, y: 20), Point(x: 300, y: 20), Point(x: 300, y: 60), Point(x: 20, y: 60))
        let detector = FixedDetector([Detection(quad: line, score: 0.9), Detection(quad: line, score: 0.8)])
        let watching = reader(detector)
        var config = OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(), memoryBudgetBytes: budget,
                                      tuneAllocator: false, watchMemoryPressure: false)
        config.stages[.ppocr] = StageOverrides(detector: detector, reader: watching)
        let engine = try KotenOCR(configuration: config)
        if underPressure { engine.store.pressureMark.note() }
        let pages = [Self.first, Self.second].map { TestPaths.image($0) }
        let widths = try pages.map { try ImageSource(url: $0).width }
        let plan = try BatchPlan.prepare(pages.map(\.path), options: BatchOptions(formats: [.txt]))
        let log = EventLog()
        let progress = try await BatchRunner(engine: engine, options: BatchOptions(formats: [.txt])).run(plan) { log.add($0) }
        #expect(progress.read == 2 && progress.failures == 0)
        return (log.all, watching, widths)
    }

    /// The events of two pages one after the other: started, its line counts, read.
    private static func inOrder(_ events: [String]) -> Bool {
        let names = [first, second].map { URL(fileURLWithPath: $0).lastPathComponent }
        var rest = events[...]
        for name in names {
            guard rest.first == "started \(name)" else { return false }
            rest = rest.dropFirst()
            let lines = rest.prefix { $0.hasPrefix("lines \(name) ") }
            guard lines.last == "lines \(name) 2/2" else { return false }
            rest = rest.dropFirst(lines.count)
            guard rest.first == "read \(name)" else { return false }
            rest = rest.dropFirst()
        }
        return rest.isEmpty
    }

    @Test("at the default budget the second page is detected while the first page's lines are read; events in page order")
    func readsAhead() async throws {
        let secondWidth = try ImageSource(url: TestPaths.image(Self.second)).width
        let (events, reader, widths) = try await Self.run(budget: nil) { WatchingReader(detector: $0, waitFor: secondWidth) }
        try #require(widths[0] != widths[1])
        let atFirstLine = try #require(reader.detectedWidthsAtEachLine.first)
        #expect(atFirstLine == widths, "the second page was not detected while the first was being read: \(atFirstLine)")
        #expect(Self.inOrder(events), "\(events)")
    }

    @Test("under an explicit budget below the machine's memory pages are read one at a time")
    func oneAtATimeWhenTight() async throws {
        let budget = Int(ProcessInfo.processInfo.physicalMemory / 2)
        let (events, reader, widths) = try await Self.run(budget: budget) { WatchingReader(detector: $0, waitFor: nil) }
        // The first page's two lines were read before the second page reached the detector.
        #expect(Array(reader.detectedWidthsAtEachLine.prefix(2)) == [[widths[0]], [widths[0]]])
        #expect(Self.inOrder(events), "\(events)")
    }

    @Test("in the window after its store's memory-pressure release pages are read one at a time")
    func oneAtATimeAfterPressure() async throws {
        let (events, reader, widths) = try await Self.run(budget: nil, underPressure: true) { WatchingReader(detector: $0, waitFor: nil) }
        #expect(Array(reader.detectedWidthsAtEachLine.prefix(2)) == [[widths[0]], [widths[0]]])
        #expect(Self.inOrder(events), "\(events)")
    }
}
