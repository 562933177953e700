import Foundation
import Testing
@testable import KotenOCRKit

/// A run that vanishes (SIGKILL, as the OOM killer or jetsam would) is reported on the next start as a probable
/// memory kill carrying the watermark and stage its marker last recorded.
@Suite("Diagnostics: probable memory kill")
struct DiagnosticsKillTests {
    @Test("a child killed with SIGKILL at the detect stage is reported with its watermark and stage")
    func killedChild() throws {
        let child = try DiagnosticsChild()
        let process = Process()
        process.executableURL = TestPaths.cli
        process.arguments = try child.readArguments([DiagnosticsChild.page.path])
        process.environment = child.environment(["KOTEN_OCR_TEST_PAUSE_STAGE": "detect"])
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()

        // Wait for the hook's line: the marker now records stage `detect`.
        var seen = ""
        while !seen.contains("paused at detect") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        let prefix = "koten-ocr-test: paused at detect pid \(process.processIdentifier) VmHWM "
        let line = try #require(seen.split(separator: "\n").first { $0.hasPrefix(prefix) }, "no pause: \(seen)")
        // The child's own VmHWM, read at the boundary independently of the marker.
        let childMark = try #require(Int(line.dropFirst(prefix.count)))
        try #require(child.runFiles().count == 1 && child.runFiles()[0].hasSuffix(".run"), "\(child.runFiles())")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)

        let payloads = try child.listedPayloads()
        try #require(payloads.count == 1, "\(payloads.map(\.id))")
        let kill = payloads[0]
        #expect(kill.kind == .probableMemoryKill)
        #expect(kill.source == .runMarker)
        #expect(kill.memory.lastStage == "detect")
        #expect(kill.termination?.pid == Int(process.processIdentifier))
        #expect(kill.termination?.reason.contains("probable memory kill") == true)
        // The watermark is the highest resident size the run recorded: at most the kernel's mark, and close to it
        // (the process sat still at the boundary, with the 100 ms sampler running).
        let watermark = try #require(kill.memory.watermarkBytes)
        #expect(watermark <= childMark + (1 << 20))
        #expect(Double(watermark) >= 0.9 * Double(childMark), "watermark \(watermark) vs VmHWM \(childMark)")
        #expect(watermark > 20_000_000)  // ONNX Runtime and libvips are loaded by then
        #expect(kill.id.hasPrefix(try #require(kill.runId)))

        // Collected once: the marker is gone and a second start reports nothing new.
        #expect(child.runFiles().isEmpty)
        #expect(try child.listedPayloads().map(\.id) == [kill.id])
    }
}
