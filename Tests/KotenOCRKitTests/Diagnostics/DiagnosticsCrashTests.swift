import Foundation
import Testing
@testable import KotenOCRKit

/// A fatal signal leaves a crash record written by the signal handler (async-signal-safe C), which the next
/// start turns into a `crash` payload.
@Suite("Diagnostics: crash records")
struct DiagnosticsCrashTests {
    @Test("a child that faults at the detect stage leaves a crash record", arguments: [("segv", SIGSEGV), ("abrt", SIGABRT)])
    func crashingChild(_ hook: String, _ signal: Int32) throws {
        let child = try DiagnosticsChild()
        let r = try runProcess(TestPaths.cli, try child.readArguments([DiagnosticsChild.page.path]),
                               environment: child.environment(["KOTEN_OCR_TEST_CRASH": hook]))
        // Killed by the signal itself (the handler restores the previous action and re-raises).
        #expect(r.status == signal, "status \(r.status), stderr: \(r.stderr)")
        #expect(r.stdout.isEmpty)

        // The raw record exists before anything else runs: only the handler can have written it.
        let files = child.runFiles()
        let crashFile = try #require(files.first { $0.hasSuffix(".crash") }, "\(files)")
        let record = try RunRecord(contentsOf: child.store.runsDirectory.appendingPathComponent(crashFile))
        #expect(record.isCrash && record.complete)
        #expect(record.signal == Int(signal))
        #expect(record.stage == "detect")

        let payloads = try child.listedPayloads()
        try #require(payloads.count == 1, "one crash payload, no memory kill: \(payloads.map(\.id))")
        let crash = payloads[0]
        #expect(crash.kind == .crash)
        #expect(crash.source == .signalHandler)
        #expect(crash.termination?.signal == Int(signal))
        #expect(crash.termination?.signalName == signalName(Int(signal)))
        #expect(crash.memory.lastStage == "detect")
        #expect((crash.memory.watermarkBytes ?? 0) > 20_000_000)
        #expect(crash.runId == record.runId)
        #expect(child.runFiles().isEmpty)
    }
}
