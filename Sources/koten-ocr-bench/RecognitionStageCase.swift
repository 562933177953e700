import Foundation
import KotenOCRKit

/// The recognition stage alone, on the photo's lines repeated `--repeat` times (a dense page of several
/// hundred lines): the app's way — one task per line, all started at once, nothing bounding the runs — or the
/// engine's — at most `--jobs` lines in flight and at most `--jobs` runs. Reports how far resident memory rose
/// above its level at the stage's start (kernel high-water mark, reset at the start).
enum RecognitionStageCase {
    static func run(_ o: BenchCase.Options, unbounded: Bool, repeats: Int) async throws {
        let limit = unbounded ? 1_000_000 : o.jobs
        let config = OCRConfiguration(mode: .ppocr, models: ModelDirectory(root: URL(fileURLWithPath: o.models)),
                                      maxConcurrentInferences: limit, tuneAllocator: true)
        let engine = try KotenOCR(configuration: config)
        guard let pipeline = try engine.pipeline(for: .ppocr) as? PPOCRPipeline else { throw BenchError.usage("no ppocr pipeline") }
        let source = try engine.open(URL(fileURLWithPath: o.photo))
        let detections = try await pipeline.detector.detect(source, store: engine.store).detections
        let reader = try PPOCRLineReader(files: pipeline.files, useOrientationClassifier: config.ppocrOrientationClassifier)
        var lines: [RGBImage] = []
        do {
            let page = try source.decode()
            let crops = detections.map { d -> RGBImage in
                let crop = perspectiveCrop(page, quad: d.quad)
                return crop.height >= crop.width * 3 / 2 ? crop.rotatedCounterClockwise() : crop
            }
            for _ in 0..<repeats { lines += crops }
        }
        // Models loaded and measured before the stage, so both variants start from the same state.
        if let first = lines.first {
            _ = try await reader.recogniser.recognise(first, store: engine.store)
            if let classifier = reader.classifier { _ = try await classifier.isUpsideDown(first, store: engine.store) }
        }
        AllocatorPolicy.trim()
        ProcessMemory.resetHighWaterMark()
        let before = ResidentReader.bytes()
        let start = Date()
        let read: @Sendable (RGBImage) async throws -> Int = { line in
            var line = line
            if let classifier = reader.classifier, try await classifier.isUpsideDown(line, store: engine.store) {
                line = line.rotated180()
            }
            return try await reader.recogniser.recognise(line, store: engine.store).text.count
        }
        var characters = 0
        try await withThrowingTaskGroup(of: Int.self) { group in
            var next = 0
            let window = unbounded ? lines.count : max(1, o.jobs)
            while next < min(window, lines.count) {
                let line = lines[next]
                group.addTask { try await read(line) }
                next += 1
            }
            while let n = try await group.next() {
                characters += n
                if next < lines.count {
                    let line = lines[next]
                    group.addTask { try await read(line) }
                    next += 1
                }
            }
        }
        var report = BenchReport(name: "recognise", peakBytes: ProcessMemory.highWaterMarkBytes(), baselineBytes: before,
                                 seconds: Date().timeIntervalSince(start))
        report.facts["lines"] = Double(lines.count)
        report.facts["growth"] = Double(report.peakBytes - before)
        report.facts["runsInFlightMax"] = Double(await engine.store.limiter.highWaterMark)
        report.facts["characters"] = Double(characters)
        try BenchReport.emit(report)
    }
}
