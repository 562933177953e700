import Foundation

/// The per-user folder of diagnostics payloads (`<id>.json`), bounded in count and size, and of the run
/// markers and crash records (`runs/<run id>.run`, `runs/<run id>.crash`) that become payloads on the next start.
///
/// Folder: `$KOTEN_OCR_STATE_DIR/diagnostics` if set; else on Linux `$XDG_STATE_HOME/koten-ocr/diagnostics`
/// (default `~/.local/state/koten-ocr/diagnostics`); on Apple platforms
/// `Application Support/koten-ocr/diagnostics`. Payloads are written atomically (`AtomicFile`); after each
/// write the oldest are deleted until at most `maxPayloads` files and `maxBytes` bytes remain.
public struct DiagnosticsStore: Sendable {
    public let directory: URL
    public let maxPayloads: Int
    public let maxBytes: Int

    public init(directory: URL, maxPayloads: Int = 50, maxBytes: Int = 5_000_000) {
        self.directory = directory
        self.maxPayloads = max(1, maxPayloads)
        self.maxBytes = max(1, maxBytes)
    }

    /// The store in the default per-user folder.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> DiagnosticsStore {
        DiagnosticsStore(directory: defaultDirectory(environment: environment))
    }

    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        func nonEmpty(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        if let state = nonEmpty("KOTEN_OCR_STATE_DIR") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("diagnostics", isDirectory: true)
        }
        #if canImport(Darwin)
        if let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
            return support.appendingPathComponent("koten-ocr/diagnostics", isDirectory: true)
        }
        #endif
        let home = nonEmpty("HOME") ?? NSHomeDirectory()
        let state = nonEmpty("XDG_STATE_HOME") ?? home + "/.local/state"
        return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("koten-ocr/diagnostics", isDirectory: true)
    }

    public var runsDirectory: URL { directory.appendingPathComponent("runs", isDirectory: true) }
    func markerURL(_ runId: String) -> URL { runsDirectory.appendingPathComponent("\(runId).run") }
    func crashRecordURL(_ runId: String) -> URL { runsDirectory.appendingPathComponent("\(runId).crash") }

    /// Creates the folders (mode 0700). Throws the file system's error naming the path.
    public func prepare() throws {
        try FileManager.default.createDirectory(at: runsDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    // MARK: - Payloads

    /// Writes `payload` as `<id>.json` (atomically), then deletes the oldest payloads beyond the bounds.
    @discardableResult
    public func save(_ payload: RunDiagnostics.Payload) throws -> URL {
        try prepare()
        let name = payload.id.replacingOccurrences(of: "/", with: "_")
        let url = directory.appendingPathComponent("\(name).json")
        try AtomicFile.write(try ResultJSON.encode(payload), to: url)
        prune(keeping: url.lastPathComponent)
        return url
    }

    /// Every readable payload, oldest first (file names begin with the UTC time). Unreadable files are skipped.
    public func payloads() -> [RunDiagnostics.Payload] {
        payloadFiles().compactMap { url in try? ResultJSON.decode(RunDiagnostics.Payload.self, from: Data(contentsOf: url)) }
    }

    /// The payload whose id is `id`, else the one whose run id is `id`, else the one whose id starts with `id`.
    /// Throws `DiagnosticsError.notFound` or `.ambiguous`.
    public func payload(matching id: String) throws -> RunDiagnostics.Payload {
        let all = payloads()
        if let exact = all.first(where: { $0.id == id }) { return exact }
        for candidates in [all.filter { $0.runId == id }, all.filter { $0.id.hasPrefix(id) }] where !candidates.isEmpty {
            guard candidates.count == 1 else { throw DiagnosticsError.ambiguous(id: id, candidates: candidates.map(\.id)) }
            return candidates[0]
        }
        throw DiagnosticsError.notFound(id: id)
    }

    private func payloadFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// Deletes the oldest payloads until the bounds hold; never `keeping`.
    private func prune(keeping: String) {
        var files = payloadFiles().map { url in
            (url, (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0)
        }
        var total = files.reduce(0) { $0 + $1.1 }
        while files.count > maxPayloads || total > maxBytes, let i = files.firstIndex(where: { $0.0.lastPathComponent != keeping }) {
            try? FileManager.default.removeItem(at: files[i].0)
            total -= files[i].1
            files.remove(at: i)
        }
    }

    // MARK: - Runs that did not end cleanly

    /// Turns the crash records and run markers of processes that are gone into payloads (saved, then the
    /// records deleted): a crash record becomes a `crash` (or `interrupted`) payload; a marker without one a
    /// `probable-memory-kill` payload with the last watermark and stage. A marker is stale when its flock can
    /// be taken (the kernel drops the lock when its process dies, whatever killed it). Returns the new payloads.
    @discardableResult
    public func collectAbandonedRuns() -> [RunDiagnostics.Payload] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: runsDirectory.path) else { return [] }
        let crashes = Set(names.filter { $0.hasSuffix(".crash") }.map { String($0.dropLast(".crash".count)) })
        let markers = Set(names.filter { $0.hasSuffix(".run") }.map { String($0.dropLast(".run".count)) })
        var made: [RunDiagnostics.Payload] = []
        for runId in crashes.union(markers).sorted() where !runId.hasPrefix(".") {
            let marker = markerURL(runId), crash = crashRecordURL(runId)
            var lock: Int32?
            if markers.contains(runId) {
                switch ProcessRunState.claim(marker) {
                case .live: continue
                case .stale(let fd): lock = fd
                case .unknown:
                    if let pid = (try? RunRecord(contentsOf: marker))?.pid, Self.processExists(pid) { continue }
                }
            }
            defer { if let lock { close(lock) } }
            let payload: RunDiagnostics.Payload
            if crashes.contains(runId), let record = try? RunRecord(contentsOf: crash) {
                payload = Self.crashPayload(record, runId: runId)
            } else {
                payload = Self.killPayload((try? RunRecord(contentsOf: marker)) ?? RunRecord(text: ""), runId: runId)
            }
            guard (try? save(payload)) != nil else { continue }
            try? FileManager.default.removeItem(at: crash)
            try? FileManager.default.removeItem(at: marker)
            made.append(payload)
        }
        return made
    }

    static func processExists(_ pid: Int) -> Bool {
        guard let p = Int32(exactly: pid), p > 0 else { return false }
        return kill(p, 0) == 0 || errno == EPERM
    }

    static func crashPayload(_ record: RunRecord, runId: String) -> RunDiagnostics.Payload {
        let signal = record.signal ?? 0
        let interrupted = [SIGINT, SIGTERM, SIGHUP].contains(Int32(clamping: signal))
        let kind: RunDiagnostics.Payload.Kind = interrupted ? .interrupted : .crash
        let stage = record.stage ?? "unknown"
        let what = interrupted ? "ended by \(signalName(signal))" : "fatal signal \(signalName(signal))"
        var p = RunDiagnostics.Payload(id: "\(runId)-\(kind.rawValue)", kind: kind, source: .signalHandler, runId: runId,
                                       start: record.start, end: record.updated, platform: .current(),
                                       memory: lastMemory(record))
        p.termination = .init(signal: signal, reason: "\(what) in stage \(stage); recorded by the signal handler",
                              pid: record.pid)
        return p
    }

    static func killPayload(_ record: RunRecord, runId: String) -> RunDiagnostics.Payload {
        var p = RunDiagnostics.Payload(id: "\(runId)-\(RunDiagnostics.Payload.Kind.probableMemoryKill.rawValue)",
                                       kind: .probableMemoryKill, source: .runMarker, runId: runId, start: record.start,
                                       end: record.updated, platform: .current(), memory: lastMemory(record))
        let last = record.watermark.map { " at \(formatBytes($0)) resident watermark" } ?? ""
        let torn = record.complete ? "" : " (marker incomplete)"
        p.termination = .init(reason: "the process vanished without a clean end or a crash record: killed by the OOM "
                              + "killer, jetsam or SIGKILL (probable memory kill); last in stage \(record.stage ?? "unknown")"
                              + last + torn, pid: record.pid)
        return p
    }

    private static func lastMemory(_ record: RunRecord) -> RunDiagnostics.Payload.Memory {
        var memory = RunDiagnostics.Payload.Memory()
        memory.watermarkBytes = record.watermark
        memory.peakResidentBytes = record.watermark
        memory.lastStage = record.stage
        memory.endResidentBytes = record.resident
        return memory
    }
}
