#if canImport(MetricKit) && (os(iOS) || os(macOS) || os(visionOS))
import Foundation
import MetricKit

/// Feeds Apple's MetricKit reports into the same `RunDiagnostics.Payload` type the engine writes, so an app sees
/// jetsam kills and crashes that never reach a crash log (docs/memory-design.md, "The app that crashed") next to its run payloads.
///
/// ```swift
/// let metricKit = MetricKitDiagnostics()   // default store: Application Support/koten-ocr/diagnostics
/// metricKit.start()                        // early, e.g. in application(_:didFinishLaunchingWithOptions:)
/// ```
/// - `MXMetricPayload` (daily): kind `run`, source `metrickit`; `memory.peakResidentBytes` from
///   `memoryMetrics.peakMemoryUsage`; `termination.exitCounts` from `applicationExitMetrics` (foreground and
///   background exits, among them `memoryResourceLimit`: jetsam kills for memory).
/// - `MXDiagnosticPayload`: each crash → `crash` (signal, Mach exception type and code, termination reason),
///   hang → `hang` (duration), CPU exception → `cpu-exception` (CPU time), disk-write exception →
///   `disk-write-exception` (bytes).
/// Reference: Apple's MetricKit documentation (MXMetricManager, MXMetricPayload, MXDiagnosticPayload).
package final class MetricKitDiagnostics: NSObject, MXMetricManagerSubscriber, @unchecked Sendable {
    public let store: DiagnosticsStore

    public init(store: DiagnosticsStore = .standard()) {
        self.store = store
        super.init()
    }

    /// Subscribes to `MXMetricManager.shared`.
    public func start() { MXMetricManager.shared.add(self) }
    public func stop() { MXMetricManager.shared.remove(self) }

    public func didReceive(_ payloads: [MXMetricPayload]) {
        for payload in payloads { save(Self.payloads(from: payload)) }
    }

    public func didReceive(_ payloads: [MXDiagnosticPayload]) {
        for payload in payloads { save(Self.payloads(from: payload)) }
    }

    private func save(_ payloads: [RunDiagnostics.Payload]) {
        for payload in payloads { _ = try? store.save(payload) }
    }

    // MARK: - Conversion

    /// A daily metric report as one payload.
    public static func payloads(from metrics: MXMetricPayload) -> [RunDiagnostics.Payload] {
        var p = RunDiagnostics.Payload(id: id(metrics.timeStampEnd, .run), kind: .run, source: .metricKit,
                                       start: metrics.timeStampBegin, end: metrics.timeStampEnd,
                                       platform: metrics.metaData.map(platform), engine: engine(metrics.latestApplicationVersion))
        if let memory = metrics.memoryMetrics {
            p.memory.peakResidentBytes = bytes(memory.peakMemoryUsage)
        }
        if let exits = metrics.applicationExitMetrics {
            let f = exits.foregroundExitData, b = exits.backgroundExitData
            var t = RunDiagnostics.Payload.Termination(reason: "app exits reported by MetricKit for the period")
            t.exitCounts = [
                "foreground.normal": f.cumulativeNormalAppExitCount,
                "foreground.abnormal": f.cumulativeAbnormalExitCount,
                "foreground.watchdog": f.cumulativeAppWatchdogExitCount,
                "foreground.memoryResourceLimit": f.cumulativeMemoryResourceLimitExitCount,
                "foreground.badAccess": f.cumulativeBadAccessExitCount,
                "background.normal": b.cumulativeNormalAppExitCount,
                "background.abnormal": b.cumulativeAbnormalExitCount,
                "background.watchdog": b.cumulativeAppWatchdogExitCount,
                "background.memoryResourceLimit": b.cumulativeMemoryResourceLimitExitCount,
                "background.memoryPressure": b.cumulativeMemoryPressureExitCount,
                "background.badAccess": b.cumulativeBadAccessExitCount,
            ]
            p.termination = t
        }
        return [p]
    }

    /// A diagnostic report: one payload per crash, hang, CPU exception and disk-write exception.
    public static func payloads(from report: MXDiagnosticPayload) -> [RunDiagnostics.Payload] {
        var out: [RunDiagnostics.Payload] = []
        func add(_ kind: RunDiagnostics.Payload.Kind, _ diagnostic: MXDiagnostic, _ termination: RunDiagnostics.Payload.Termination) {
            var p = RunDiagnostics.Payload(id: id(report.timeStampEnd, kind), kind: kind, source: .metricKit,
                                           start: report.timeStampBegin, end: report.timeStampEnd,
                                           platform: platform(diagnostic.metaData), engine: engine(diagnostic.applicationVersion))
            p.termination = termination
            out.append(p)
        }
        for crash in report.crashDiagnostics ?? [] {
            var t = RunDiagnostics.Payload.Termination(signal: crash.signal?.intValue,
                                                       reason: crash.terminationReason ?? "crash reported by MetricKit")
            t.exceptionType = crash.exceptionType?.intValue
            t.exceptionCode = crash.exceptionCode?.intValue
            add(.crash, crash, t)
        }
        for hang in report.hangDiagnostics ?? [] {
            var t = RunDiagnostics.Payload.Termination(reason: "the main thread did not respond (MetricKit hang report)")
            t.durationSeconds = hang.hangDuration.converted(to: .seconds).value
            add(.hang, hang, t)
        }
        for cpu in report.cpuExceptionDiagnostics ?? [] {
            var t = RunDiagnostics.Payload.Termination(reason: "CPU time exception (MetricKit)")
            t.durationSeconds = cpu.totalCPUTime.converted(to: .seconds).value
            add(.cpuException, cpu, t)
        }
        for disk in report.diskWriteExceptionDiagnostics ?? [] {
            var t = RunDiagnostics.Payload.Termination(reason: "disk write exception (MetricKit)")
            t.bytes = bytes(disk.totalWritesCaused)
            add(.diskWriteException, disk, t)
        }
        return out
    }

    private static func id(_ end: Date, _ kind: RunDiagnostics.Payload.Kind) -> String {
        "\(RunDiagnostics.makeRunId(end))-metrickit-\(kind.rawValue)"
    }

    private static func bytes(_ m: Measurement<UnitInformationStorage>) -> Int {
        Int(m.converted(to: .bytes).value)
    }

    private static func engine(_ appVersion: String) -> RunDiagnostics.Payload.Engine {
        var e = RunDiagnostics.Payload.Engine(version: EngineVersion.current)
        e.applicationVersion = appVersion
        return e
    }

    private static func platform(_ meta: MXMetaData) -> RunDiagnostics.Payload.Platform {
        var p = RunDiagnostics.Payload.Platform.current()
        p.osVersion = meta.osVersion
        p.device = meta.deviceType
        p.architecture = meta.platformArchitecture
        return p
    }
}
#endif
