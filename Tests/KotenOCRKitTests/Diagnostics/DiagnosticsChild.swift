import Foundation
import Testing
@testable import KotenOCRKit

/// Runs the real `koten-ocr` on a sample page with its own diagnostics folder, for the diagnostics tests.
struct DiagnosticsChild {
    let stateDirectory: URL
    var store: DiagnosticsStore { DiagnosticsStore.standard(environment: ["KOTEN_OCR_STATE_DIR": stateDirectory.path]) }

    init() throws {
        stateDirectory = try TestPaths.temporaryDirectory("diagnostics-state")
    }

    /// The environment of a child: ours, the state folder, no Swift backtrace (slow, and not under test), and `extra`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["KOTEN_OCR_STATE_DIR"] = stateDirectory.path
        env["KOTEN_OCR_CACHE_DIR"] = testCacheDirectory.path
        env["SWIFT_BACKTRACE"] = "enable=no"
        for key in ["KOTEN_OCR_TEST_PAUSE_STAGE", "KOTEN_OCR_TEST_CRASH", "KOTEN_OCR_TEST_REPORT_HWM"] { env[key] = nil }
        env.merge(extra) { $1 }
        return env
    }

    static var page: URL { TestPaths.image("ndlocr-lite-rs/scaned0.png") }

    func readArguments(_ extra: [String] = []) throws -> [String] {
        ["--models", try TestPaths.ppocrModels().root.path, "--quiet"] + extra
    }

    /// `koten-ocr diagnostics --json` in this state folder: every payload (collecting abandoned runs first).
    func listedPayloads() throws -> [RunDiagnostics.Payload] {
        let r = try runProcess(TestPaths.cli, ["diagnostics", "--json"], environment: environment())
        try #require(r.status == 0, "diagnostics --json failed: \(r.stderr)")
        return try ResultJSON.decode([RunDiagnostics.Payload].self, from: Data(r.stdout.utf8))
    }

    /// Files in runs/ (markers and crash records).
    func runFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.runsDirectory.path)) ?? []).sorted()
    }
}
