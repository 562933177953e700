import Foundation
import Testing
@testable import KotenOCRKit

/// The speed benchmark's attribution (docs/performance.md, "Speed"): `KOTEN_OCR_REPORT_MODEL_RUNS=1` makes
/// `koten-ocr` say how long each model's runs took, how long any run was in flight, and what the detector's buffers
/// did (`DetectorBuffers`).
@Suite("Model-run report")
struct ModelRunReportTests {
    @Test("scaned0 in ppocr: each of the three models ran, its seconds > 0; the busy time is within the run and the runs' sum")
    func report() throws {
        let page = TestPaths.packageRoot.appendingPathComponent("samples/scaned0.png")
        var env = ProcessInfo.processInfo.environment
        env["KOTEN_OCR_REPORT_MODEL_RUNS"] = "1"
        let started = Date()
        let run = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q", page.path],
                                 environment: env)
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("koten-ocr-runs: ") }.map { $0.split(separator: " ") }
        let models = lines.filter { $0.count == 5 && $0[1] == "model" }
        #expect(Set(models.map { String($0[2]) }) == ["ppocrv5_det.onnx", "ppocrv5_cls.onnx", "ppocrv5_rec.onnx"], "\(run.stderr)")
        let seconds = models.compactMap { Double($0[3]) }, runs = models.compactMap { Int($0[4]) }
        #expect(seconds.count == 3 && seconds.allSatisfy { $0 > 0 } && runs.allSatisfy { $0 >= 1 }, "\(run.stderr)")
        let busy = try #require(lines.first { $0.count == 3 && $0[1] == "busy" }.flatMap { Double($0[2]) }, "\(run.stderr)")
        #expect(busy > 0 && busy <= seconds.reduce(0, +) + 0.001 && busy < elapsed, "busy \(busy), runs \(seconds), process \(elapsed)")
        #expect(lines.contains { $0.count == 4 && $0[1] == "detector-buffers" }, "\(run.stderr)")
        // Without the variable, no report.
        let quiet = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q", page.path])
        #expect(!quiet.stderr.contains("koten-ocr-runs:"))
    }

    @Test("the detector's buffers: served again while memory is not tight, never with the cache off or under a tight budget; the text the same")
    func detectorBuffers() throws {
        let page = TestPaths.packageRoot.appendingPathComponent("samples/scaned0.png")
        func read(_ extra: [String], _ variables: [String: String] = [:]) throws -> (text: String, maps: Int, reuses: Int) {
            var env = ProcessInfo.processInfo.environment
            env["KOTEN_OCR_REPORT_MODEL_RUNS"] = "1"
            env["KOTEN_OCR_DETECTOR_CACHE_MB"] = nil
            for (k, v) in variables { env[k] = v }
            let run = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q"] + extra + [page.path],
                                     environment: env)
            #expect(run.status == 0, "\(run.stderr)")
            let line = run.stderr.split(separator: "\n").first { $0.hasPrefix("koten-ocr-runs: detector-buffers ") }?.split(separator: " ") ?? []
            return (run.stdout, line.count == 4 ? Int(line[2]) ?? -1 : -1, line.count == 4 ? Int(line[3]) ?? -1 : -1)
        }
        let kept = try read([])
        #expect(kept.maps > 0 && kept.reuses > 0, "maps \(kept.maps), reuses \(kept.reuses)")
        let off = try read([], ["KOTEN_OCR_DETECTOR_CACHE_MB": "0"])
        #expect(off.maps > kept.maps && off.reuses == 0, "maps \(off.maps), reuses \(off.reuses)")
        let tight = try read(["--memory-budget", "300MB"])
        #expect(tight.maps > 0 && tight.reuses == 0, "maps \(tight.maps), reuses \(tight.reuses)")
        #expect(!kept.text.isEmpty && kept.text == off.text && kept.text == tight.text)
    }
}
