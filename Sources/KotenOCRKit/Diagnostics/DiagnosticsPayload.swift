import Foundation

extension RunDiagnostics {
    /// What one run (or one crash, kill or MetricKit report) tells about the engine's time and memory —
    /// the sight in-app diagnostics gave the iPhone app (docs/memory-design.md, "The app that crashed"), on every platform.
    ///
    /// Written as JSON (`schemaVersion` 1, docs/diagnostics.md) by `RunDiagnostics.finish()` for a run, by
    /// `DiagnosticsStore.collectAbandonedRuns()` for a crash record or a vanished run, and by
    /// `MetricKitDiagnostics` on Apple platforms. Byte counts are bytes; times are seconds; dates are ISO 8601
    /// with milliseconds, UTC. Resident memory is Linux RSS (`/proc/self/statm`) or Darwin `phys_footprint`.
    public struct Payload: Sendable, Codable, Equatable {
        public static let schemaVersion = 1

        public var schemaVersion = RunDiagnostics.Payload.schemaVersion
        /// Unique id of this payload (file name stem): the run id for `run`, `<run id>-<kind>` otherwise.
        public var id: String
        public var kind: Kind
        /// Who wrote it.
        public var source: Source
        /// The run it describes (absent for MetricKit reports, which cover a period, not a run).
        public var runId: String?
        /// When the run (or reporting period) started.
        public var start: Date?
        /// When it ended: the clean end, the crash, the last marker update of a vanished run, or the end of
        /// the reporting period.
        public var end: Date?
        public var platform: Platform?
        public var engine: Engine?
        public var memory: Memory
        /// Per-stage wall time and memory, in the order stages were first entered.
        public var stages: [Stage] = []
        /// Model store events (loads, evictions, releases, activation measurements) during the run.
        public var modelEvents: [ModelEvent] = []
        /// Memory-pressure events and what they freed.
        public var pressureEvents: [PressureEvent] = []
        public var pages = Pages()
        /// How the process ended, for `crash`, `interrupted`, `probable-memory-kill` and MetricKit reports.
        public var termination: Termination?
        /// Events left out because a list reached its bound (`RunDiagnostics.Options`).
        public var droppedEvents = 0

        public init(id: String, kind: Kind, source: Source, runId: String? = nil, start: Date? = nil, end: Date? = nil,
                    platform: Platform? = nil, engine: Engine? = nil, memory: Memory = Memory()) {
            self.id = id
            self.kind = kind
            self.source = source
            self.runId = runId
            self.start = start
            self.end = end
            self.platform = platform
            self.engine = engine
            self.memory = memory
        }

        /// What the payload reports.
        public enum Kind: String, Sendable, Codable, CaseIterable {
            /// A run that ended cleanly.
            case run
            /// A fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) or a MetricKit crash diagnostic.
            case crash
            /// SIGINT, SIGTERM or SIGHUP ended the run.
            case interrupted
            /// The run vanished without a clean end or a crash record: the OOM killer, jetsam or SIGKILL.
            case probableMemoryKill = "probable-memory-kill"
            /// MetricKit: the app's main thread did not respond.
            case hang
            /// MetricKit: a fatal or non-fatal CPU-time exception.
            case cpuException = "cpu-exception"
            /// MetricKit: too many bytes written to disk.
            case diskWriteException = "disk-write-exception"
        }

        public enum Source: String, Sendable, Codable {
            /// `RunDiagnostics` in the running process.
            case engine
            /// The crash record the fatal-signal handler wrote.
            case signalHandler = "signal-handler"
            /// A run marker left behind by a process that is gone.
            case runMarker = "run-marker"
            /// Apple's MetricKit.
            case metricKit = "metrickit"
        }

        public struct Platform: Sendable, Codable, Equatable {
            /// "Linux", "macOS", "iOS", ...
            public var os: String
            /// Kernel release on Linux, the OS version string elsewhere (MetricKit: e.g. "iPhone OS 17.2 (21C62)").
            public var osVersion: String
            /// "x86_64", "arm64", ...
            public var architecture: String
            /// MetricKit's device type (e.g. "iPhone10,3"); absent elsewhere.
            public var device: String?
            public var physicalMemoryBytes: Int?
            /// The cgroup memory limit when one is set (Linux).
            public var memoryLimitBytes: Int?
            public var processorCount: Int?
        }

        public struct Engine: Sendable, Codable, Equatable {
            /// KotenOCR's version (`KotenOCR.version`).
            public var version: String
            /// MetricKit reports: the app's version.
            public var applicationVersion: String?
            /// The loaded ONNX Runtime library's version (`InferenceEnvironment.runtimeVersion`).
            public var onnxRuntimeVersion: String?
            /// The modes used in the run.
            public var modes: [String] = []
            /// Every model file of those modes.
            public var models: [Model] = []
            /// The model store's memory budget.
            public var memoryBudgetBytes: Int?
        }

        public struct Model: Sendable, Codable, Equatable {
            /// "ppocr/detector", ...
            public var id: String
            public var file: String
            public var bytes: Int
        }

        public struct Memory: Sendable, Codable, Equatable {
            /// The highest resident bytes seen in the run (stage boundaries and timer samples; on Linux also the
            /// kernel high-water mark when it rose during the run).
            public var peakResidentBytes: Int?
            /// When the peak was seen (the sample time, or the end of the stage in which the kernel mark rose).
            public var peakAt: Date?
            /// The stage running when the peak was seen (nil between stages).
            public var peakStage: String?
            /// The highest timer or boundary sample alone.
            public var sampledPeakBytes: Int?
            /// Resident bytes when the run started and when it ended.
            public var startResidentBytes: Int?
            public var endResidentBytes: Int?
            /// The kernel's high-water mark at the end of the run (Linux VmHWM: the process's lifetime peak).
            public var highWaterMarkBytes: Int?
            /// The last resident watermark and stage a crashed or vanished run recorded.
            public var watermarkBytes: Int?
            public var lastStage: String?
            /// Timer interval and number of readings taken.
            public var sampleIntervalSeconds: Double?
            public var samples: Int?

            public init() {}
        }

        /// One stage's totals over the run. Times are exclusive of nested stages.
        public struct Stage: Sendable, Codable, Equatable {
            /// "decode", "detect", "recognise", "order", "write", or a mode's own.
            public var name: String
            /// Times entered.
            public var count: Int
            /// Times its body threw.
            public var failures: Int
            /// Total and longest wall time.
            public var seconds: Double
            public var maxSeconds: Double
            /// The highest resident bytes seen while it ran.
            public var peakResidentBytes: Int
            /// The most resident memory grew above its level at the stage's start (peak − start).
            public var maxGrowthBytes: Int
        }

        public struct ModelEvent: Sendable, Codable, Equatable {
            /// When the engine saw it (absent when it was read from the store's log at the end).
            public var time: Date?
            /// "loaded", "evicted", "released", "activation-measured".
            public var event: String
            /// Model id, e.g. "ppocr/detector".
            public var model: String
            /// Resident bytes loaded or freed; for "activation-measured" the activation peak.
            public var bytes: Int
            public var fileBytes: Int?
            public var seconds: Double?
            /// Why a model was released; for an eviction the model it made room for.
            public var reason: String?
            public var inputElements: Int?
        }

        public struct PressureEvent: Sendable, Codable, Equatable {
            public var time: Date
            /// What signalled it: "psi", "cgroup-memory-events", "budget-watchdog", "dispatch-memory-pressure",
            /// "uikit-memory-warning", "metrickit", ...
            public var source: String
            /// Bytes the engine released in response.
            public var freedBytes: Int
            /// How long the release took.
            public var seconds: Double
            /// Resident bytes when it was recorded.
            public var residentBytes: Int
        }

        public struct Pages: Sendable, Codable, Equatable {
            /// Pages read successfully.
            public var processed = 0
            /// Pages (or inputs) that failed.
            public var failed = 0
            /// The first failures, with reasons (bounded).
            public var failures: [PageFailure] = []
            /// The first pages whose detector read them in tiles (ppocr: a pass too large for one run within the
            /// memory budget), bounded like `failures`; absent when there was none.
            public var tiled: [TiledPage]?

            public init() {}
        }

        /// A page read in tiles: its largest tiled pass.
        public struct TiledPage: Sendable, Codable, Equatable {
            public var path: String
            /// 1-based page within the file.
            public var page: Int
            /// Why the pass ran (`DetectorPass.reason`), its scale (detector pixels per page pixel), its map size
            /// and its tiles.
            public var reason: String
            public var scale: Double
            public var width: Int
            public var height: Int
            public var tiles: Int
        }

        public struct PageFailure: Sendable, Codable, Equatable {
            public var path: String
            /// 1-based page within the file; absent for an input that is not a page (a missing path).
            public var page: Int?
            /// The stage that threw, when known.
            public var stage: String?
            public var reason: String
        }

        public struct Termination: Sendable, Codable, Equatable {
            /// The signal number and name (11, "SIGSEGV").
            public var signal: Int?
            public var signalName: String?
            /// A sentence: what ended the process and how it is known.
            public var reason: String
            /// The process id of the run.
            public var pid: Int?
            /// MetricKit: Mach exception type and code, hang duration, CPU time, bytes written.
            public var exceptionType: Int?
            public var exceptionCode: Int?
            public var durationSeconds: Double?
            public var bytes: Int?
            /// MetricKit: exit counts of the reporting period, e.g. "foreground.memoryResourceLimit": 2.
            public var exitCounts: [String: Int]?

            public init(signal: Int? = nil, reason: String, pid: Int? = nil) {
                self.signal = signal
                self.signalName = signal.map(signalName(_:))
                self.reason = reason
                self.pid = pid
            }
        }
    }
}

/// "SIGSEGV" for 11, ..., "signal N" for others.
package func signalName(_ signal: Int) -> String {
    let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
                                  SIGABRT: "SIGABRT", SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP",
                                  SIGKILL: "SIGKILL", SIGTRAP: "SIGTRAP", SIGQUIT: "SIGQUIT"]
    return Int32(exactly: signal).flatMap { names[$0] } ?? "signal \(signal)"
}
