import Foundation
import KotenOCRKit

/// `koten-ocr diagnostics`: lists and shows diagnostics payloads and measures their cost. A thin layer: the
/// logic is in KotenOCRKit/Diagnostics (docs/diagnostics.md).
enum DiagnosticsCommand {
    static let help = """
    Usage: koten-ocr diagnostics [--json]            list payloads, oldest first, one line each
                                                     (--json: all payloads as one JSON array)
           koten-ocr diagnostics show ID [--json]    show one payload (ID: payload id, run id or unique prefix)
           koten-ocr diagnostics --overhead PAGE [--repeat N] [--models DIR]
                                                     benchmark: ppocr page time with and without diagnostics

    Every run of koten-ocr keeps diagnostics unless --no-diagnostics: peak memory, per-stage time and memory,
    model load/evict events, pages and failures; a fatal signal leaves a crash record, and a run that vanished
    (OOM killer, SIGKILL) is reported as a probable memory kill. Runs that crashed or vanished are collected
    when koten-ocr next starts. Folder: $KOTEN_OCR_STATE_DIR/diagnostics, else $XDG_STATE_HOME/koten-ocr/diagnostics
    (default ~/.local/state/koten-ocr/diagnostics); the newest 50 payloads (at most 5 MB) are kept.

    Exit status: 0 done; 1 no such payload, or the benchmark failed; 2 usage error.
    """

    static func run(_ args: [String]) async -> Int32 {
        var json = false, show: String?, overhead: String?, models: String?, repeats = 10
        var i = 0
        func value(_ flag: String) -> String? {
            i += 1
            return i < args.count ? args[i] : nil
        }
        while i < args.count {
            switch args[i] {
            case "-h", "--help":
                print(help)
                return 0
            case "--json": json = true
            case "show":
                guard let id = value("show") else { return usage("show needs a payload id") }
                show = id
            case "--overhead":
                guard let page = value("--overhead") else { return usage("--overhead needs a page image") }
                overhead = page
            case "--models":
                guard let dir = value("--models") else { return usage("--models needs a value") }
                models = dir
            case "--repeat":
                guard let text = value("--repeat"), let n = Int(text), n >= 1 else {
                    return usage("--repeat needs a whole number ≥ 1")
                }
                repeats = n
            default: return usage("unknown argument \(args[i]) (see koten-ocr diagnostics --help)")
            }
            i += 1
        }
        if let overhead { return await measureOverhead(page: overhead, repeats: repeats, models: models) }
        let store = DiagnosticsStore.standard()
        store.collectAbandonedRuns()
        if let show {
            do {
                let payload = try store.payload(matching: show)
                if json { FileHandle.standardOutput.write(try ResultJSON.encode(payload)) } else { print(payload.summary) }
                return 0
            } catch {
                stderrLine("koten-ocr: \(error)")
                return 1
            }
        }
        let payloads = store.payloads()
        if json {
            FileHandle.standardOutput.write((try? ResultJSON.encode(payloads)) ?? Data("[]\n".utf8))
        } else if payloads.isEmpty {
            print("no diagnostics in \(store.directory.path)")
        } else {
            for p in payloads { print(p.listLine) }
        }
        return 0
    }

    private static func usage(_ message: String) -> Int32 {
        stderrLine("koten-ocr diagnostics: \(message)")
        return 2
    }

    private static func measureOverhead(page: String, repeats: Int, models: String?) async -> Int32 {
        let mode = OCRMode.ppocr
        guard let dir = models.map({ ModelDirectory(root: URL(fileURLWithPath: $0)) }) ?? ModelDirectory.locate(mode.descriptor),
              dir.missingFiles(for: mode.descriptor).isEmpty else {
            stderrLine("koten-ocr: no ppocr models found (use --models DIR)")
            return 2
        }
        do {
            let report = try await DiagnosticsOverhead.measure(configuration: OCRConfiguration(mode: mode, models: dir, tuneAllocator: true),
                                                               page: URL(fileURLWithPath: page), repeats: repeats)
            print(report.markdown)
            return 0
        } catch {
            stderrLine("koten-ocr: \(error)")
            return 1
        }
    }

    // MARK: - Hooks for a normal run

    /// This run's diagnostics: kept in the store unless --no-diagnostics; in memory only when just
    /// --diagnostics FILE asks for them.
    static func begin(_ arguments: Arguments) -> RunDiagnostics? {
        guard arguments.diagnostics || arguments.diagnosticsFile != nil else { return nil }
        return RunDiagnostics(store: arguments.diagnostics ? DiagnosticsStore.standard() : nil,
                              options: RunDiagnostics.Options(terminationSignals: true),
                              hooks: DiagnosticsTestHooks(environment: ProcessInfo.processInfo.environment))
    }

    /// Runs `body` with the run's stages bound (so the CLI's own `write` stage is recorded).
    static func withStages<T>(_ diagnostics: RunDiagnostics?, _ body: () async -> T) async -> T {
        guard let diagnostics else { return await body() }
        return await diagnostics.withStages(body)
    }

    /// Ends the run: the payload goes to the store and, with --diagnostics FILE, to FILE.
    static func end(_ diagnostics: RunDiagnostics?, file: String?) async {
        guard let diagnostics else { return }
        let payload: RunDiagnostics.Payload
        do {
            payload = try await diagnostics.finish()
        } catch DiagnosticsError.saveFailed(let path, let reason, let kept) {
            stderrLine("koten-ocr: warning: \(path): cannot write diagnostics: \(reason)")
            payload = kept
        } catch {
            return
        }
        guard let file else { return }
        do {
            try AtomicFile.write(try ResultJSON.encode(payload), to: URL(fileURLWithPath: file))
        } catch {
            stderrLine("koten-ocr: \(file): cannot write diagnostics: \(ErrorText.line(error))")
        }
    }
}
