import Foundation
import Testing

/// The IIIF tests' one server (`scripts/iiif-test-server.py` under `.deps/iiif`'s Python): level-0 images made by
/// the Image API reference implementation from two fixture pages — the horizontal yokogaki page (canvas 1) and the
/// vertical tategaki page (canvas 2) —, 3.0, 2.1 and faults manifests, on 127.0.0.1 at an ephemeral port. Started
/// once for every test; it stops when this process ends (its standard input closes), or after 4 hours should that
/// never be seen: a bound on an orphan, far beyond any run (a full suite on two busy cores took over 15 minutes, the
/// bound it had, and the IIIF tests that came after found no server).
final class IIIFServer: @unchecked Sendable {
    static let python = TestPaths.packageRoot.appendingPathComponent(".deps/iiif/bin/python")
    static let script = TestPaths.packageRoot.appendingPathComponent("scripts/iiif-test-server.py")
    static let checker = TestPaths.packageRoot.appendingPathComponent("scripts/iiif-check.py")
    static let pages = ["ndlocr-lite/yokogaki2026-04-24-103617.png", "ndlocr-lite/tategaki2026-04-24-094138.png"]

    let port: Int
    let root: URL
    let log: URL
    private let process: Process
    private let input: Pipe

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: IIIFServer?

    /// The running server (started on first use).
    static func shared() throws -> IIIFServer {
        lock.lock()
        defer { lock.unlock() }
        if let started { return started }
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "\(python.path) missing: run scripts/setup.sh")
        let server = try IIIFServer()
        started = server
        return server
    }

    private init() throws {
        root = try TestPaths.temporaryDirectory("iiif-server")
        log = root.appendingPathComponent("requests.log")
        let images = root.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = Self.python
        process.arguments = [Self.script.path, "--root", images.path, "--log", log.path, "--lifetime", "14400"]
            + Self.pages.map { TestPaths.image($0).path }
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is `PORT <n>`, written once the images are made and the socket is listening.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A { line.append(first) }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw ServerError(description: "the IIIF test server did not start (it printed '\(text)')")
        }
        self.port = port
    }

    struct ServerError: Error, CustomStringConvertible { let description: String }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The image file the server gives for page `number` (1-based) at full size: what reading it directly reads.
    func fullImage(_ number: Int) throws -> URL {
        let folder = root.appendingPathComponent("www/iiif/page\(number)/full")
        let widths = try FileManager.default.contentsOfDirectory(atPath: folder.path).compactMap { Int($0.dropLast()) }
        let width = try #require(widths.max())
        return folder.appendingPathComponent("\(width),/0/default.jpg")
    }

    /// The paths requested so far, in order.
    func requests() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// What `scripts/iiif-check.py` says of the run's `manifest` (ids under `base` read from `folder`): the parsed
    /// JSON summary, or a failure with the libraries' reason.
    static func check(_ manifest: URL, base: String, folder: URL) throws -> [String: Any] {
        let run = try runProcess(python, [checker.path, manifest.path, base, folder.path])
        try #require(run.status == 0, "iiif-check: \(run.stderr)")
        return try JSONAccess.dict(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)))
    }
}
