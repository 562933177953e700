import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// A `koten-ocr serve --port 0` child process on 127.0.0.1 (it ends when the test process does: its standard
/// input is a pipe, `KOTEN_OCR_TEST_SERVE_EXIT_ON_EOF`).
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let stdin = Pipe()
    let work: URL
    let port: Int
    /// Its standard error.
    let log: URL
    var base: String { "http://127.0.0.1:\(port)" }

    init(work: URL, _ extra: [String] = [], environment: [String: String] = [:]) throws {
        self.work = work
        process.executableURL = TestPaths.cli
        process.arguments = ["serve", "--port", "0", "--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path,
                             "--work-dir", work.path, "--memory-budget", "800MB"] + extra
        var env = ProcessInfo.processInfo.environment
        env["KOTEN_OCR_TEST_SERVE_EXIT_ON_EOF"] = "1"
        env["KOTEN_OCR_STATE_DIR"] = testStateDirectory.path
        env["KOTEN_OCR_CACHE_DIR"] = testCacheDirectory.path
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        // Its standard error beside the work directory (`serve-<id>.log`), for a failing test to be read (removed at
        // exit when empty).
        log = work.deletingLastPathComponent().appendingPathComponent("serve-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        RemovedAtExit.shared.add(log, onlyIfEmpty: true)
        process.standardError = (try? FileHandle(forWritingTo: log)) ?? FileHandle.nullDevice
        process.standardInput = stdin
        try process.run()
        // The one line it prints: `koten-ocr: serving on http://127.0.0.1:PORT/ ...` (or nothing when it fails).
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "127.0.0.1:"), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw ServeTestError(description: "the server did not start: \(text)")
        }
        self.port = port
    }

    /// For a failing test's message: whether it still runs (or how it ended), and the end of its standard error.
    var state: String {
        let running = process.isRunning
        let ended = running ? "running" : "ended (\(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus))"
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        // A crash's report (Swift's backtracer): from its first line, through the crashed thread's frames.
        if let crash = text.range(of: "*** Program crashed") {
            return "server \(ended); its crash report: \(text[crash.lowerBound...].prefix(3000))"
        }
        return "server \(ended); its standard error ends: \(text.suffix(1500))"
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill9() }
    }
}

struct ServeTestError: Error, CustomStringConvertible { let description: String }

/// One HTTP exchange made with Debian's curl.
struct HTTPReply {
    let status: Int
    let headers: String
    let body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
    func header(_ name: String) -> String? {
        headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }
}

func curl(_ url: String, _ arguments: [String] = []) throws -> HTTPReply {
    let dir = try TestPaths.temporaryDirectory("serve-curl")
    defer { try? FileManager.default.removeItem(at: dir) }
    let body = dir.appendingPathComponent("body"), headers = dir.appendingPathComponent("headers")
    let result = try runProcess(URL(fileURLWithPath: "/usr/bin/curl"),
                                ["-s", "--max-time", "120", "-o", body.path, "-D", headers.path, "-w", "%{http_code}"] + arguments + [url])
    return HTTPReply(status: Int(result.stdout) ?? 0, headers: (try? String(contentsOf: headers, encoding: .utf8)) ?? "",
                     body: (try? Data(contentsOf: body)) ?? Data())
}

/// Polls `GET /v1/jobs/{id}` until `until` holds (bounded: 600 polls a quarter-second apart).
func waitForJob(_ server: ServeProcess, _ id: String, until: ([String: Any]) -> Bool = { $0["state"] as? String == "done" }) throws -> [String: Any] {
    for _ in 0..<600 {
        let reply = try curl("\(server.base)/v1/jobs/\(id)")
        if until(reply.json) { return reply.json }
        Thread.sleep(forTimeInterval: 0.25)
    }
    throw ServeTestError(description: "job \(id) did not get there")
}

enum ServeFixtures {
    /// A multi-page TIFF of `count` one-line windows of the scan (240×56 pixels each).
    static func lines(_ count: Int, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("lines-\(count).tif")
        try ImageWriter.saveMultiPageTIFF((0..<count).map { try BatchFixtures.line($0 % 40) }, to: url)
        return url
    }

    /// A zip made by Python's zipfile: `entries` of (name, bytes given as a Python expression).
    static func zip(_ entries: [(String, String)], to url: URL) throws {
        let body = entries.map { "z.writestr(\(pythonString($0.0)), \($0.1))" }.joined(separator: "\n")
        let script = "import zipfile\nz = zipfile.ZipFile(\(pythonString(url.path)), 'w', zipfile.ZIP_DEFLATED)\n\(body)\nz.close()\n"
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script])
        #expect(result.status == 0, "\(result.stderr)")
    }

    private static func pythonString(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "\\'") + "'" }
}
