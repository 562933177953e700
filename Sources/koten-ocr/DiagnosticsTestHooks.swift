import CTestCrash
import Foundation
import KotenOCRKit

/// Test hooks, read from the environment once per run (documented in docs/diagnostics.md, "Test hooks").
/// They exist so tests can stop, crash or check a real `koten-ocr` process at a chosen stage boundary; they live
/// in the command-line tool and reach the run through the library's `RunDiagnosticsHooks` seam:
///
/// - `KOTEN_OCR_TEST_PAUSE_STAGE=detect` — on entering stage `detect` (after the run marker records it),
///   write `koten-ocr-test: paused at detect pid <pid> VmHWM <bytes>` to standard error and sleep 120 s (to be
///   killed).
/// - `KOTEN_OCR_TEST_CRASH=segv[@stage]` — on entering the stage (default `detect`) raise the signal:
///   `segv` (an invalid memory write), `abrt` (abort()), `bus`, `ill` or `fpe` (raise()).
/// - `KOTEN_OCR_TEST_REPORT_HWM=1` — after `finish()`, write `koten-ocr-test: VmHWM <bytes>` (the kernel's
///   high-water mark read then, independently of the payload) to standard error.
struct DiagnosticsTestHooks: RunDiagnosticsHooks {
    var pauseStage: String?
    var crashSignal: Int32?
    var crashStage = "detect"
    var reportHighWaterMark = false

    /// nil when no hook is set.
    init?(environment: [String: String]) {
        pauseStage = environment["KOTEN_OCR_TEST_PAUSE_STAGE"].flatMap { $0.isEmpty ? nil : $0 }
        if let crash = environment["KOTEN_OCR_TEST_CRASH"], !crash.isEmpty {
            let parts = crash.split(separator: "@", maxSplits: 1).map(String.init)
            let signals: [String: Int32] = ["segv": SIGSEGV, "bus": SIGBUS, "ill": SIGILL, "fpe": SIGFPE, "abrt": SIGABRT]
            crashSignal = signals[parts[0].lowercased()]
            if parts.count > 1 { crashStage = parts[1] }
        }
        reportHighWaterMark = environment["KOTEN_OCR_TEST_REPORT_HWM"] == "1"
        if pauseStage == nil && crashSignal == nil && !reportHighWaterMark { return nil }
    }

    func atStageStart(_ stage: String) {
        if let crashSignal, stage == crashStage { kcr_test_crash(crashSignal) }
        if stage == pauseStage {
            let line = "koten-ocr-test: paused at \(stage) pid \(getpid()) VmHWM \(ProcessMemory.highWaterMarkBytes())\n"
            FileHandle.standardError.write(Data(line.utf8))
            Thread.sleep(forTimeInterval: 120)
        }
    }

    func atFinish() {
        guard reportHighWaterMark else { return }
        FileHandle.standardError.write(Data("koten-ocr-test: VmHWM \(ProcessMemory.highWaterMarkBytes())\n".utf8))
    }
}
