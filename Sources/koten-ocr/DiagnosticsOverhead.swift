import Foundation
import KotenOCRKit

/// The cost of diagnostics, measured (a benchmark, not a test): `koten-ocr diagnostics --overhead PAGE`.
///
/// One engine reads `page` once to load its models, then `repeats` times without and `repeats` times with a
/// `RunDiagnostics` (store in a temporary folder: marker, crash handler, 100 ms sampler, stage hooks, model
/// events), interleaved (ABBA) so drift hits both alike, recording wall time and the process's CPU time. Because
/// whole-page times on a shared machine vary by more than the effect, it also times the parts: one stage
/// (enter + exit) and one timer sample, each over many calls, and multiplies them by how often a page uses them.
public enum DiagnosticsOverhead {
    public struct Report: Sendable {
        public var page: String
        /// Wall seconds and process CPU seconds (user + system, every thread) per read, without and with.
        public var without: [Reading]
        public var with: [Reading]
        /// Seconds of one stage's bookkeeping (enter + exit) and of one timer sample.
        public var stageSeconds: Double
        public var sampleSeconds: Double
        /// Stages per page, and timer samples per page at the run's interval.
        public var stagesPerPage: Int
        public var samplesPerPage: Double

        public struct Reading: Sendable {
            public var wall: Double
            public var cpu: Double
        }

        /// Seconds per page the parts add: stages × stage cost + samples × sample cost.
        public var computedSeconds: Double { Double(stagesPerPage) * stageSeconds + samplesPerPage * sampleSeconds }

        /// The report as markdown tables.
        public var markdown: String {
            func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
            func fine(_ s: Double) -> String { String(format: "%.3f ms", s * 1000) }
            let base = median(without.map(\.wall))
            func share(_ s: Double, of whole: Double) -> String { String(format: "%+.3f%%", s / whole * 100) }
            func row(_ name: String, _ f: ([Reading]) -> Double) -> String {
                let a = f(without), b = f(with)
                return "| \(name) | \(ms(a)) | \(ms(b)) | \(ms(b - a)) | \(share(b - a, of: a)) |"
            }
            return """
            Diagnostics overhead on \(page) (\(without.count) reads without and \(with.count) with, interleaved)

            | page time | without diagnostics | with diagnostics | difference | share |
            |---|---:|---:|---:|---:|
            \(row("wall, median") { median($0.map(\.wall)) })
            \(row("wall, fastest") { $0.map(\.wall).min() ?? 0 })
            \(row("CPU (all threads), median") { median($0.map(\.cpu)) })

            | cost of the parts | each | per page | share of page time (wall median) |
            |---|---:|---:|---:|
            | stage bookkeeping (enter + exit) | \(String(format: "%.1f µs", stageSeconds * 1e6)) | \(stagesPerPage) × = \(fine(Double(stagesPerPage) * stageSeconds)) | \(share(Double(stagesPerPage) * stageSeconds, of: base)) |
            | timer sample (background thread) | \(String(format: "%.1f µs", sampleSeconds * 1e6)) | \(String(format: "%.1f", samplesPerPage)) × = \(fine(samplesPerPage * sampleSeconds)) | \(share(samplesPerPage * sampleSeconds, of: base)) |
            | computed total | | \(fine(computedSeconds)) | \(share(computedSeconds, of: base)) |
            """
        }
    }

    /// Measures the overhead on `page` (its first page) with `configuration`. Throws what reading throws.
    public static func measure(configuration: OCRConfiguration, page: URL, repeats: Int = 10,
                               probes: Int = 2000) async throws -> Report {
        let engine = try KotenOCR(configuration: configuration)
        let source = try engine.open(page)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-overhead-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DiagnosticsStore(directory: folder)
        _ = try await engine.read(source)  // loads the models and measures their activations once

        var without: [Report.Reading] = [], with: [Report.Reading] = []
        var stagesPerPage = 0
        let options = RunDiagnostics.Options()
        for i in 0..<max(1, repeats) {
            for diagnosed in i % 2 == 0 ? [false, true] : [true, false] {
                if diagnosed {
                    let run = RunDiagnostics(store: store, options: options)
                    await run.attach(engine.store)
                    let start = DispatchTime.now().uptimeNanoseconds, cpu = cpuSeconds()
                    _ = try await run.page(path: page.path, page: 1) { try await engine.read(source) }
                    with.append(.init(wall: seconds(since: start), cpu: cpuSeconds() - cpu))
                    let payload = try await run.finish()
                    stagesPerPage = payload.stages.reduce(0) { $0 + $1.count }
                } else {
                    let start = DispatchTime.now().uptimeNanoseconds, cpu = cpuSeconds()
                    _ = try await engine.read(source)
                    without.append(.init(wall: seconds(since: start), cpu: cpuSeconds() - cpu))
                }
            }
        }

        let run = RunDiagnostics(store: store, options: options)
        let probe: PipelineStage = "overhead-probe"
        let stageStart = DispatchTime.now().uptimeNanoseconds
        await run.withStages {
            for _ in 0..<probes { probe.measure {} }
        }
        let stageSeconds = seconds(since: stageStart) / Double(probes)
        let sampleStart = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<probes { run.sampleTick() }
        let sampleSeconds = seconds(since: sampleStart) / Double(probes)
        _ = try await run.finish()

        return Report(page: page.lastPathComponent, without: without, with: with, stageSeconds: stageSeconds,
                      sampleSeconds: sampleSeconds, stagesPerPage: stagesPerPage,
                      samplesPerPage: median(with.map(\.wall)) / options.sampleInterval)
    }

    private static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// User + system CPU seconds of the whole process so far.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        let who = RUSAGE_SELF.rawValue
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return s(usage.ru_utime) + s(usage.ru_stime)
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
