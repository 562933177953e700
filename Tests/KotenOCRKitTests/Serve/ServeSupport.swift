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
        // The one line it prints: `koten-ocr: serving on http://HOST:PORT/ ...` (or nothing when it fails).
        let text = firstLine(out)
        let authority = text.range(of: "serving on http://").map { text[$0.upperBound...].prefix { $0 != "/" } } ?? ""
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
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

/// The first line a child writes to `pipe` (all it wrote when it ends before a line).
func firstLine(_ pipe: Pipe) -> String {
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
    }
    return String(decoding: line, as: UTF8.self)
}

/// `scripts/reverse-proxy.py` as a child process on 127.0.0.1: it serves the server given to `forward(to:)` under
/// `prefix`, the Host set to the server's (nginx's default); it ends when the test process does (its standard
/// input is a pipe).
final class ReverseProxy: @unchecked Sendable {
    let process = Process()
    let stdin = Pipe()
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    init(prefix: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.packageRoot.appendingPathComponent("scripts/reverse-proxy.py").path, "--prefix", prefix]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = stdin
        try process.run()
        let text = firstLine(out)
        guard let port = Int(text.replacingOccurrences(of: "listening on ", with: "").trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ServeTestError(description: "the proxy did not start: \(text)")
        }
        self.port = port
    }

    /// Starts passing requests on to `upstream` (`http://127.0.0.1:PORT`).
    func forward(to upstream: String) throws {
        try stdin.fileHandleForWriting.write(contentsOf: Data((upstream + "\n").utf8))
    }

    deinit {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }
}

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

/// One request written as bytes on a socket to 127.0.0.1:`port` (for what no client sends: a request line past any
/// argument's length), and the answer read to the connection's end: its status and the bytes after the headers.
func rawHTTP(port: Int, _ request: Data) throws -> (status: Int, body: Data) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServeTestError(description: "no socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw ServeTestError(description: "cannot connect to port \(port)") }
    var sent = 0
    request.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        while sent < raw.count {
            let n = send(fd, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            if n <= 0 { break }  // the server may answer and close before the whole request is sent
            sent += n
        }
    }
    var answer = Data(), buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        answer.append(contentsOf: buffer[0..<n])
    }
    let text = String(decoding: answer.prefix(64), as: UTF8.self)
    let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    let split = answer.range(of: Data("\r\n\r\n".utf8))
    return (status, split.map { answer[$0.upperBound...] } ?? Data())
}
