import Foundation
import Testing
@testable import KotenOCRKit

/// Paths the tests use, relative to this file (no bundle resources): the fixtures in Tests/Fixtures and the
/// models `scripts/setup.sh` installs into .deps/models.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")
    static let images = fixtures.appendingPathComponent("images")
    static let models = packageRoot.appendingPathComponent(".deps/models")

    static func image(_ relative: String) -> URL { images.appendingPathComponent(relative) }

    /// The PP-OCRv5 model folder; records a failure (with the fix) if setup has not been run.
    static func ppocrModels() throws -> ModelDirectory {
        let dir = ModelDirectory(root: models)
        try #require(dir.missingFiles(for: PPOCRDescriptor()).isEmpty, "PP-OCRv5 models missing under \(models.path): run scripts/setup.sh")
        return dir
    }

    /// The built `koten-ocr` executable (next to the test bundle).
    static var cli: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("koten-ocr")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/koten-ocr")
    }

    /// A fresh temporary folder, removed with everything in it when the test process exits (`RemovedAtExit`).
    static func temporaryDirectory(_ name: String = "koten-ocr-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        RemovedAtExit.shared.add(url)
        return url
    }
}

/// The temporary folders and files the tests made in this process (`TestPaths.temporaryDirectory`, the
/// diagnostics state folder, the servers' logs), removed at its exit: a test run used to leave about 250 folders
/// in the system's temporary folder.
final class RemovedAtExit: @unchecked Sendable {
    static let shared = RemovedAtExit()
    private let lock = NSLock()
    private var paths: [(url: URL, onlyIfEmpty: Bool)] = []

    private init() {
        atexit { RemovedAtExit.shared.removeAll() }
    }

    /// `url` goes at exit; when `onlyIfEmpty`, only if it is an empty file (a log a failing test may need stays).
    func add(_ url: URL, onlyIfEmpty: Bool = false) { lock.withLock { paths.append((url, onlyIfEmpty)) } }

    /// Removes everything added so far (what cannot be removed stays; nothing is reported at exit).
    func removeAll() {
        let made = lock.withLock { () -> [(url: URL, onlyIfEmpty: Bool)] in
            defer { paths = [] }
            return paths
        }
        for (url, onlyIfEmpty) in made {
            if onlyIfEmpty, (try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize != 0 { continue }
            try? FileManager.default.removeItem(at: url)
        }
    }
}

/// Character error rate: Levenshtein distance over Unicode scalars ÷ reference length.
func characterErrorRate(_ hypothesis: String, reference: String) -> Double {
    let h = Array(hypothesis.unicodeScalars), r = Array(reference.unicodeScalars)
    guard !r.isEmpty else { return h.isEmpty ? 0 : 1 }
    var previous = Array(0...h.count)
    var current = [Int](repeating: 0, count: h.count + 1)
    for i in 1...r.count {
        current[0] = i
        for j in stride(from: 1, through: h.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (r[i - 1] == h[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return Double(previous[h.count]) / Double(r.count)
}

/// Text with all white space removed (line breaks differ between references and OCR output).
func withoutWhitespace(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }))
}

/// Runs a process and collects its exit status and output.
struct ProcessResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Diagnostics payloads of CLI runs started by tests go here, not into the user's state directory.
let testStateDirectory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-test-state-\(getpid())")
    RemovedAtExit.shared.add(url)
    return url
}()

/// The optimised models of CLI runs started by tests go here (kept from one test run to the next, like a user's
/// cache; `OptimisedModelCache` tidies it), not into the user's cache.
let testCacheDirectory = TestPaths.packageRoot.appendingPathComponent(".build/test-cache")

func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                directory: URL? = nil, input: URL? = nil) throws -> ProcessResult {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    var env = environment ?? ProcessInfo.processInfo.environment
    if env["KOTEN_OCR_STATE_DIR"] == nil { env["KOTEN_OCR_STATE_DIR"] = testStateDirectory.path }
    if env["KOTEN_OCR_CACHE_DIR"] == nil { env["KOTEN_OCR_CACHE_DIR"] = testCacheDirectory.path }
    p.environment = env
    if let directory { p.currentDirectoryURL = directory }
    if let input { p.standardInput = try FileHandle(forReadingFrom: input) }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return ProcessResult(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                         stderr: String(decoding: e, as: UTF8.self))
}
