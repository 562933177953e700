#if os(Linux)
import Foundation
import Testing
@testable import KotenOCRKit

/// Nothing leaves the machine that the user did not ask for (docs/privacy.md). `koten-ocr serve` and a CLI run read
/// pages, local files and a IIIF book, in a network namespace with only loopback under `strace`: every connection
/// they attempt is to the IIIF server the manifest names, or to the name service cache's socket (hidden there);
/// and they write nothing under their home or cache folders (ONNX Runtime 1.32's telemetry keeps a device id and
/// an event store there when it starts: seen even when its upload, about 9 s later, is not). The switches that
/// would turn ONNX Runtime's telemetry off without koten-ocr's own doing (`ORT_DISABLE_TELEMETRY`, CI variables)
/// are removed from the children's environment, so that the test fails without the fix anywhere, CI included.
@Suite("Nothing leaves the machine")
struct NothingLeavesTests {
    /// Variables under which ONNX Runtime 1.32 starts no telemetry of its own accord (its CI detection and opt-outs).
    static let telemetrySwitches = ["ORT_DISABLE_TELEMETRY", "ORT_RUNNING_UNIT_TESTS", "CI", "TF_BUILD", "GITHUB_ACTIONS", "GITLAB_CI",
                                    "CIRCLECI", "TRAVIS", "JENKINS_URL", "CODEBUILD_BUILD_ID", "BUILDKITE", "TEAMCITY_VERSION",
                                    "APPVEYOR", "BITBUCKET_BUILD_NUMBER", "SYSTEM_TEAMFOUNDATIONCOLLECTIONURI"]
    /// The name service cache's socket: Foundation asks it for file owners' names (`getpwuid_r`); hidden in the namespace.
    static let nameServiceCache: Set = ["\"/var/run/nscd/socket\"", "\"/run/nscd/socket\""]
    /// How long the server is watched at least: ONNX Runtime 1.32's uploader first looks its collector up about 9 s
    /// after the environment is made. Watching longer only looks longer; the test passes or fails the same.
    static let serverWatch: TimeInterval = 15

    @Test("the CLI and the server, offline but for loopback: connections only to the manifest's IIIF server, nothing written home")
    func onlyWhatWasAskedFor() throws {
        let namespace = try LoopbackNamespace()
        defer { namespace.end() }
        let dir = try TestPaths.temporaryDirectory("nothing-leaves")
        let page = TestPaths.image("ndlocr-lite-rs/scaned0.png")
        let iiif = try NamespacedIIIFServer(namespace, page: page, root: dir.appendingPathComponent("iiif"))
        defer { iiif.stop() }
        let manifest = "http://127.0.0.1:\(iiif.port)/v3/manifest.json"
        let allowed = ["127.0.0.1:\(iiif.port)"]  // the host of the manifest, its canvases' images and image services

        let serverHome = dir.appendingPathComponent("server-home"), cliHome = dir.appendingPathComponent("cli-home")
        let serverTrace = dir.appendingPathComponent("server.trace"), cliTrace = dir.appendingPathComponent("cli.trace")
        let models = try TestPaths.ppocrModels().root.path
        let server = try NamespacedServer(namespace, ["serve", "--port", "0", "--mode", "ppocr", "--models", models, "--work-dir",
                                                      dir.appendingPathComponent("work").path, "--memory-budget", "800MB"],
                                          environment: try Self.environment(home: serverHome), trace: serverTrace, log: dir.appendingPathComponent("server.log"))
        let started = Date()
        let fileJob = try server.post(["-F", "file=@\(page.path)"], namespace)
        let bookJob = try server.post(["-F", "manifest=\(manifest)"], namespace)

        let out = dir.appendingPathComponent("out")
        let cli = try runProcess(LoopbackNamespace.nsenter, namespace.arguments([TestPaths.cli.path, "--mode", "ppocr", "--models", models,
                                                                                "-o", out.path, page.path, manifest], trace: cliTrace),
                                 environment: try Self.environment(home: cliHome))
        #expect(cli.status == 0, "\(cli.stderr)")
        let written = FileManager.default.enumerator(atPath: out.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".txt") } ?? []
        #expect(written.count == 2, "the page and the canvas read: \(written)")

        for id in [fileJob, bookJob] {
            let job = try server.waitForJob(id, namespace)
            #expect(job["state"] as? String == "done" && job["failures"] == nil, "\(job)")
        }
        let watched = Date().timeIntervalSince(started)
        if watched < Self.serverWatch { Thread.sleep(forTimeInterval: Self.serverWatch - watched) }
        server.stop()

        for (name, trace, home) in [("koten-ocr serve", serverTrace, serverHome), ("koten-ocr", cliTrace, cliHome)] {
            let attempts = ConnectionAttempt.all(in: try String(contentsOf: trace, encoding: .utf8))
            // The IIIF fetches are seen: the trace holds what it should (a test that cannot fail is a defect).
            #expect(attempts.contains { allowed.contains($0.destination) }, "\(name): no connection to the IIIF server traced")
            let unasked = attempts.filter { attempt in
                switch attempt.family {
                case "AF_INET": return !allowed.contains(attempt.destination)
                case "AF_UNIX": return !Self.nameServiceCache.contains(attempt.destination)
                case "AF_NETLINK", "AF_UNSPEC": return false  // the kernel's routing tables; a datagram socket's peer dissolved
                default: return true
                }
            }
            let shown = unasked.prefix(6).map(\.line).joined(separator: "\n"), none = unasked.isEmpty
            #expect(none, "\(name) tried to reach what nobody asked for (\(unasked.count) attempts; port 53 is a DNS look-up):\n\(shown)")
            let left = FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String } ?? [], clean = left.isEmpty
            #expect(clean, "\(name) wrote under its home folder: \(left.prefix(8))")
        }
    }

    /// The test's environment for a child: its home and cache home a fresh folder, ONNX Runtime's telemetry switches removed.
    static func environment(home: URL) throws -> [String: String] {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        for name in telemetrySwitches { env[name] = nil }
        env["HOME"] = home.path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        env["XDG_STATE_HOME"] = home.appendingPathComponent(".local/state").path
        env["KOTEN_OCR_STATE_DIR"] = testStateDirectory.path
        env["KOTEN_OCR_CACHE_DIR"] = testCacheDirectory.path
        return env
    }
}

/// `scripts/iiif-test-server.py` with one page, inside the namespace (not traced).
private final class NamespacedIIIFServer {
    let port: Int
    private let process = Process()
    private let input = Pipe()

    init(_ namespace: LoopbackNamespace, page: URL, root: URL) throws {
        try #require(FileManager.default.isExecutableFile(atPath: IIIFServer.python.path), "\(IIIFServer.python.path) missing: run scripts/setup.sh")
        let images = root.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        process.executableURL = LoopbackNamespace.nsenter
        process.arguments = namespace.arguments([IIIFServer.python.path, IIIFServer.script.path, "--root", images.path,
                                                 "--log", root.appendingPathComponent("requests.log").path, "--lifetime", "600", page.path])
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = try firstLine(of: output)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw LoopbackNamespace.NamespaceError(description: "the IIIF test server did not start in the namespace ('\(line)')")
        }
        self.port = port
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// `koten-ocr serve` inside the namespace under `strace`; it ends when its standard input closes.
private final class NamespacedServer {
    let port: Int
    private let process = Process()
    private let input = Pipe()

    init(_ namespace: LoopbackNamespace, _ arguments: [String], environment: [String: String], trace: URL, log: URL) throws {
        process.executableURL = LoopbackNamespace.nsenter
        process.arguments = namespace.arguments([TestPaths.cli.path] + arguments, trace: trace)
        var env = environment
        env["KOTEN_OCR_TEST_SERVE_EXIT_ON_EOF"] = "1"
        process.environment = env
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        // `koten-ocr: serving on http://127.0.0.1:PORT/ ...`
        let line = try firstLine(of: output)
        guard let range = line.range(of: "127.0.0.1:"), let port = Int(line[range.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw LoopbackNamespace.NamespaceError(description: "the server did not start: '\(line)' \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        self.port = port
    }

    /// One request with curl inside the namespace: its status and JSON body.
    func request(_ path: String, _ arguments: [String] = [], _ namespace: LoopbackNamespace) throws -> (status: Int, json: [String: Any]) {
        let run = try runProcess(LoopbackNamespace.nsenter, namespace.arguments(["/usr/bin/curl", "-s", "--max-time", "120", "-w", "\n%{http_code}"]
                                                                                 + arguments + ["http://127.0.0.1:\(port)\(path)"]))
        let body = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().joined(separator: "\n")
        let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        return (Int(run.stdout.split(separator: "\n").last ?? "") ?? 0, json)
    }

    /// Posts a job; its id.
    func post(_ form: [String], _ namespace: LoopbackNamespace) throws -> String {
        let reply = try request("/v1/jobs", form, namespace)
        #expect(reply.status == 202, "\(reply.json)")
        return try #require(reply.json["id"] as? String, "\(reply.json)")
    }

    /// The job once it is no longer queued or running (bounded: 600 polls a quarter-second apart).
    func waitForJob(_ id: String, _ namespace: LoopbackNamespace) throws -> [String: Any] {
        for _ in 0..<600 {
            let job = try request("/v1/jobs/\(id)", [], namespace).json
            if let state = job["state"] as? String, state != "queued", state != "running" { return job }
            Thread.sleep(forTimeInterval: 0.25)
        }
        throw LoopbackNamespace.NamespaceError(description: "job \(id) did not end")
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// The first line a child writes on `pipe` (empty if it ends first).
private func firstLine(of pipe: Pipe) throws -> String {
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
    }
    return String(decoding: line.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
}
#endif
