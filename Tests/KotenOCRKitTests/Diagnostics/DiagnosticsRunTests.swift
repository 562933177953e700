import Foundation
import Testing
@testable import KotenOCRKit

/// A clean run of the real CLI leaves a payload with the run's peak, stages, model events and pages.
@Suite("Diagnostics: clean run payload")
struct DiagnosticsRunTests {
    @Test("peak matches VmHWM within 5%; stages, models and pages recorded")
    func cleanRun() throws {
        let child = try DiagnosticsChild()
        let empty = child.stateDirectory.appendingPathComponent("empty.jpg")
        try Data().write(to: empty)
        let file = child.stateDirectory.appendingPathComponent("run.json")
        let r = try runProcess(TestPaths.cli,
                               try child.readArguments(["--diagnostics", file.path, DiagnosticsChild.page.path, empty.path]),
                               environment: child.environment(["KOTEN_OCR_TEST_REPORT_HWM": "1"]))
        #expect(r.status == 1)  // the empty file failed, the page was read
        #expect(r.stdout.contains("対馬"))
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("koten-ocr-test: VmHWM ") })
        let vmHWM = try #require(Int(line.dropFirst("koten-ocr-test: VmHWM ".count)))

        let payload = try ResultJSON.decode(RunDiagnostics.Payload.self, from: Data(contentsOf: file))
        #expect(payload.kind == .run && payload.source == .engine)
        let peak = try #require(payload.memory.peakResidentBytes)
        #expect(abs(Double(peak - vmHWM)) <= 0.05 * Double(vmHWM), "peak \(peak) vs VmHWM \(vmHWM)")
        // The payload's mark is the kernel's, read in finish(); the hook reads it again after the payload is saved.
        // The mark never falls, and saving grows the process by less than 1 MB, except under a sanitizer, whose
        // allocator and shadow memory grow with each allocation (there, within 5% as the peak).
        let mark = try #require(payload.memory.highWaterMarkBytes)
        let growth = vmHWM - mark
        #expect(growth >= 0 && growth <= (Sanitizers.active ? vmHWM / 20 : 1 << 20),
                "payload VmHWM \(mark) vs VmHWM \(vmHWM) after finish()")
        #expect(payload.memory.peakStage != nil && payload.memory.peakAt != nil)

        let stages = Dictionary(uniqueKeysWithValues: payload.stages.map { ($0.name, $0) })
        for name in ["decode", "detect", "recognise", "order", "write"] {
            let stage = try #require(stages[name], "stage \(name) missing: \(payload.stages.map(\.name))")
            #expect(stage.count >= 1 && stage.seconds >= 0 && stage.peakResidentBytes > 0)
        }
        // The detector's reduced decode, the full-resolution one for crops, and the second look's (scaned0's
        // （目的） reads under 0.95 in its box: `SecondLook`).
        #expect(stages["decode"]?.count == 3)
        #expect((stages["detect"]?.maxGrowthBytes ?? 0) > 10_000_000)  // the detector's activations

        #expect(payload.pages.processed == 1 && payload.pages.failed == 1)
        let failure = try #require(payload.pages.failures.first)
        // Refused while the batch was planned (its header could not be read): no page number yet.
        #expect(failure.path == empty.path && failure.page == nil && failure.stage == "decode")
        #expect(failure.reason.contains("empty file"))

        let loaded = Set(payload.modelEvents.filter { $0.event == "loaded" }.map(\.model))
        #expect(loaded == ["ppocr/detector", "ppocr/classifier", "ppocr/recogniser"])
        #expect(payload.modelEvents.contains { $0.event == "activation-measured" && $0.model == "ppocr/detector" })
        #expect(payload.engine?.onnxRuntimeVersion?.isEmpty == false)
        #expect(payload.engine?.models.map(\.file).sorted() == ["ppocrv5_cls.onnx", "ppocrv5_det.onnx", "ppocrv5_rec.onnx"])
        #expect(payload.platform?.os == "Linux")

        // The same payload is in the store, and the marker is gone (a clean end).
        #expect(try child.listedPayloads() == [payload])
        #expect(child.runFiles().isEmpty)
    }
}
