import Foundation

/// Collects one run's diagnostics at low cost and writes them as a `RunDiagnostics.Payload` when the run ends.
///
/// Starting a run (init): turns crash records and run markers left by earlier processes into payloads
/// (`collected`), writes this run's marker, installs the fatal-signal handler (once per process) and starts a
/// background thread that reads resident memory every `sampleInterval` (one read of /proc/self/statm).
/// During the run: stages (`PipelineStage.measure`), pages (`page(path:page:_:)`, `recordFailure`), model
/// store events (`attach(_:)`) and memory-pressure events (`recordPressure`) are recorded. `finish()` stops
/// sampling, writes the payload to the store and removes the marker; a process that dies before `finish()`
/// is reported on the next start (docs/diagnostics.md).
///
/// The marker and crash handler are process-wide: while one run owns them (`ownsProcessState`), another
/// run in the same process still collects its payload but leaves no marker or crash record.
public final class RunDiagnostics: @unchecked Sendable {
    public struct Options: Sendable {
        /// Seconds between timer readings of resident memory (default 0.1).
        public var sampleInterval: TimeInterval
        /// Write a run marker (so a kill that cannot be caught is reported on the next start).
        public var runMarker: Bool
        /// Install the SIGSEGV/SIGBUS/SIGILL/SIGFPE/SIGABRT handler that writes a crash record.
        public var crashRecords: Bool
        /// Also record SIGINT/SIGTERM/SIGHUP (only where their disposition is the default) — for command-line
        /// tools, so an interrupted run is not mistaken for a memory kill.
        public var terminationSignals: Bool
        /// Bounds on the lists of a payload (failures; model and pressure events).
        public var maxFailures: Int
        public var maxEvents: Int

        public init(sampleInterval: TimeInterval = 0.1, runMarker: Bool = true, crashRecords: Bool = true,
                    terminationSignals: Bool = false, maxFailures: Int = 100, maxEvents: Int = 500) {
            self.sampleInterval = max(0.001, sampleInterval)
            self.runMarker = runMarker
            self.crashRecords = crashRecords
            self.terminationSignals = terminationSignals
            self.maxFailures = max(0, maxFailures)
            self.maxEvents = max(0, maxEvents)
        }
    }

    /// Binds the run to the current task for `PipelineStage.measure` (see `withStages`).
    @TaskLocal static var context: StageContext?

    /// "20261129-184600-4f3a9c": UTC start time and 24 random bits.
    public let runId: String
    public let start: Date
    /// Where the payload goes at `finish()` (nil: only returned).
    public let store: DiagnosticsStore?
    public let options: Options
    /// True when this run owns the process-wide run marker and crash record.
    public let ownsProcessState: Bool
    /// Payloads made from earlier processes' crash records and markers when this run started.
    public let collected: [Payload]

    let lock = NSLock()
    var stageOrder: [String] = []
    var stageTotals: [String: StageTotals] = [:]
    var openFrames: [StageFrame] = []
    var sampledPeak: (bytes: Int, at: Date, stage: String?)
    var kernelPeak: (bytes: Int, at: Date, stage: String?)?
    var lastHighWaterMark: Int
    var samples = 0
    var pages = Payload.Pages()
    var pressureEvents: [Payload.PressureEvent] = []
    var droppedEvents = 0
    var engine: Payload.Engine
    var attachments: [ModelEventFeed] = []
    var finished: Payload?
    let startResident: Int
    let hooks: (any RunDiagnosticsHooks)?
    private let stopSampling = DispatchSemaphore(value: 0)

    /// Starts a run. `store` nil keeps the payload in memory only (no marker, no crash record). Never throws:
    /// a diagnostics directory that cannot be written loses the marker, not the run.
    public convenience init(store: DiagnosticsStore? = DiagnosticsStore.standard(), options: Options = Options()) {
        self.init(store: store, options: options, hooks: nil)
    }

    /// A run whose stage boundaries and finish also call `hooks` (the command-line tool's test hooks).
    package init(store: DiagnosticsStore?, options: Options, hooks: (any RunDiagnosticsHooks)?) {
        let start = Date()
        self.start = start
        runId = Self.makeRunId(start)
        self.store = store
        self.options = options
        self.hooks = hooks
        collected = store?.collectAbandonedRuns() ?? []
        var owns = false
        if let store, options.runMarker, (try? store.prepare()) != nil {
            owns = ProcessRunState.begin(marker: store.markerURL(runId), crashRecord: store.crashRecordURL(runId),
                                         runId: runId, start: start, fatalSignals: options.crashRecords,
                                         terminationSignals: options.terminationSignals)
        }
        ownsProcessState = owns
        startResident = ResidentReader.bytes()
        lastHighWaterMark = ProcessMemory.highWaterMarkBytes()
        sampledPeak = (startResident, start, nil)
        engine = Payload.Engine(version: EngineVersion.current,
                                onnxRuntimeVersion: try? InferenceEnvironment.shared().runtimeVersion)
        if owns { ProcessRunState.stage("start", resident: startResident) }
        startSampling(stopSampling)
    }

    /// A run dropped without `finish()` writes no payload; its marker is removed (it did not vanish).
    deinit {
        stopSampling.signal()
        if ownsProcessState && finished == nil { ProcessRunState.end(removeMarker: true) }
    }

    static func makeRunId(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date) + "-" + String(format: "%06x", UInt32.random(in: 0...0xFF_FFFF))
    }

    // MARK: - Binding stages

    /// Runs `body` with this run bound to the task, so `PipelineStage.measure` inside it (and in its child
    /// tasks) records here.
    public func withStages<T>(isolation: isolated (any Actor)? = #isolation,
                              _ body: () async throws -> T) async rethrows -> T {
        try await Self.$context.withValue(StageContext(recorder: self, frame: nil, page: nil), operation: body,
                                          isolation: isolation)
    }

    /// Reads one page with this run bound: counts it processed when `body` returns, failed (with the error
    /// and the stage that threw) when it throws. `page` is 1-based.
    public func page<T>(path: String, page: Int?, isolation: isolated (any Actor)? = #isolation,
                        _ body: () async throws -> T) async rethrows -> T {
        let outcome = PageOutcome()
        let outer = Self.context
        let context = StageContext(recorder: self, frame: outer?.recorder === self ? outer?.frame : nil, page: outcome)
        do {
            let result = try await Self.$context.withValue(context, operation: body, isolation: isolation)
            lock.withLock { pages.processed += 1 }
            return result
        } catch is CancellationError {
            throw CancellationError()  // a cancelled page neither failed nor was processed
        } catch {
            let stage = lock.withLock { outcome.failedStage }
            recordFailure(path: path, page: page, stage: stage, reason: String(describing: error))
            throw error
        }
    }

    // MARK: - Recording

    /// Records a page or input that failed outside `page(path:page:_:)` (e.g. a missing path). `page` is
    /// 1-based, nil for an input that is not a page.
    public func recordFailure(path: String, page: Int?, stage: String?, reason: String) {
        lock.withLock {
            pages.failed += 1
            if pages.failures.count < options.maxFailures {
                let oneLine = reason.replacingOccurrences(of: "\n", with: " ")
                pages.failures.append(.init(path: path, page: page, stage: stage, reason: oneLine))
            } else {
                droppedEvents += 1
            }
        }
    }

    /// Records that page `page` (1-based) of `path` was read in tiles: the pass of `summary` with the most tiles.
    public func recordTiledPage(path: String, page: Int, summary: PageResult.DetectorSummary) {
        guard let pass = summary.passes.max(by: { $0.tiles < $1.tiles }), pass.tiles > 1 else { return }
        let entry = Payload.TiledPage(path: path, page: page, reason: pass.reason, scale: pass.scale,
                                      width: pass.width, height: pass.height, tiles: pass.tiles)
        lock.withLock {
            if pages.tiled?.count ?? 0 < options.maxFailures { pages.tiled = (pages.tiled ?? []) + [entry] } else { droppedEvents += 1 }
        }
    }

    /// Records a memory-pressure event: what signalled it (`source`, e.g. "psi", "cgroup-memory-events",
    /// "dispatch-memory-pressure"), the bytes the engine released in response and how long that took.
    public func recordPressure(freedBytes: Int, seconds: Double, source: String) {
        let resident = ResidentReader.bytes()
        let event = Payload.PressureEvent(time: Date(), source: source, freedBytes: freedBytes,
                                          seconds: seconds, residentBytes: resident)
        lock.withLock {
            noteSample(resident, at: event.time)
            if pressureEvents.count < options.maxEvents { pressureEvents.append(event) } else { droppedEvents += 1 }
        }
    }

    /// Records that `mode` ran with `models` under a store with `budgetBytes`.
    public func noteMode(_ mode: OCRMode, models: [ModelDescriptor], budgetBytes: Int?) {
        lock.withLock {
            guard !engine.modes.contains(mode.rawValue) else { return }
            engine.modes.append(mode.rawValue)
            engine.models += models.map { .init(id: $0.id, file: $0.url.lastPathComponent, bytes: $0.fileBytes) }
            if let budgetBytes { engine.memoryBudgetBytes = budgetBytes }
        }
    }

    // MARK: - Finishing

    /// Ends the run: stops sampling, collects the model store events, writes the payload to `store`, and
    /// removes the run marker. Calling it again returns the same payload. Throws
    /// `DiagnosticsError.saveFailed` (carrying the payload) when the store cannot be written.
    @discardableResult
    public func finish() async throws -> Payload {
        if let done = lock.withLock({ finished }) { return done }
        stopSampling.signal()
        let events = await drainModelEvents()
        let endResident = ResidentReader.bytes()
        let endMark = ProcessMemory.highWaterMarkBytes()
        let (payload, first): (Payload, Bool) = lock.withLock {
            if let done = finished { return (done, false) }
            noteSample(endResident, at: Date())
            noteHighWaterMark(endMark, at: Date(), stage: nil)
            var p = makePayload(end: Date(), endResident: endResident)
            p.modelEvents = Array(events.prefix(options.maxEvents))
            p.droppedEvents += max(0, events.count - options.maxEvents)
            #if os(Linux)
            p.memory.highWaterMarkBytes = endMark
            #endif
            finished = p
            return (p, true)
        }
        guard first else { return payload }  // a concurrent finish() did the rest
        var saveError: Error?
        if let store {
            do { try store.save(payload) } catch { saveError = error }
        }
        if ownsProcessState { ProcessRunState.end(removeMarker: true) }
        hooks?.atFinish()
        if let saveError {
            throw DiagnosticsError.saveFailed(path: store?.directory.path ?? "", reason: ErrorText.line(saveError), payload: payload)
        }
        return payload
    }

    /// The payload so far (the run goes on).
    public func snapshot() -> Payload {
        let resident = ResidentReader.bytes()
        return lock.withLock { makePayload(end: nil, endResident: resident) }
    }

    /// Assembles the payload. Called under `lock`.
    private func makePayload(end: Date?, endResident: Int) -> Payload {
        var memory = Payload.Memory()
        let peak = kernelPeak.map { $0.bytes > sampledPeak.bytes ? $0 : sampledPeak } ?? sampledPeak
        memory.peakResidentBytes = peak.bytes
        memory.peakAt = peak.at
        memory.peakStage = peak.stage
        memory.sampledPeakBytes = sampledPeak.bytes
        memory.startResidentBytes = startResident
        memory.endResidentBytes = endResident
        memory.sampleIntervalSeconds = options.sampleInterval
        memory.samples = samples
        var p = Payload(id: runId, kind: .run, source: .engine, runId: runId, start: start, end: end,
                        platform: .current(), engine: engine, memory: memory)
        p.stages = stageOrder.compactMap { name in
            stageTotals[name].map {
                .init(name: name, count: $0.count, failures: $0.failures, seconds: Double($0.nanos) / 1e9,
                      maxSeconds: Double($0.maxNanos) / 1e9, peakResidentBytes: $0.peak, maxGrowthBytes: $0.maxGrowth)
            }
        }
        p.pressureEvents = pressureEvents
        p.pages = pages
        p.droppedEvents = droppedEvents
        return p
    }
}

/// Problems of the diagnostics store.
package enum DiagnosticsError: Error, CustomStringConvertible {
    case notFound(id: String)
    case ambiguous(id: String, candidates: [String])
    case saveFailed(path: String, reason: String, payload: RunDiagnostics.Payload)

    public var description: String {
        switch self {
        case .notFound(let id): return "no diagnostics payload \(id) (see `koten-ocr diagnostics`)"
        case .ambiguous(let id, let candidates): return "\(id) matches \(candidates.joined(separator: ", "))"
        case .saveFailed(let path, let reason, _): return "\(path): cannot write diagnostics: \(reason)"
        }
    }
}
