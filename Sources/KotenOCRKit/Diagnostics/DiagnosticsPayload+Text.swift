import Foundation

/// How `koten-ocr diagnostics` prints payloads for people.
extension RunDiagnostics.Payload {
    /// One line: time (UTC), kind, id, peak memory, pages.
    /// `2026-11-29 18:46:00Z  run                   20261129-184600-4f3a9c  peak 217 MB  pages 3 (1 failed)`
    public var listLine: String {
        let time = (end ?? start).map(Self.timeText) ?? "-"
        let peak = memory.peakResidentBytes.map(formatBytes) ?? "-"
        let stage = kind == .run ? "" : memory.lastStage.map { " in \($0)" } ?? ""
        let pagesText = kind == .run || pages.processed + pages.failed > 0
            ? "pages \(pages.processed)" + (pages.failed > 0 ? " (\(pages.failed) failed)" : "") : "pages -"
        return [time, kind.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0), id,
                "peak \(peak)\(stage)", pagesText].joined(separator: "  ")
    }

    /// Several lines: the whole payload in words and tables.
    public var summary: String {
        var out: [String] = []
        func row(_ key: String, _ value: String) { out.append(key.padding(toLength: 12, withPad: " ", startingAt: 0) + value) }
        row("id", id)
        row("kind", "\(kind.rawValue) (from \(source.rawValue))")
        if let runId { row("run", runId) }
        if let start { row("start", Self.timeText(start)) }
        if let end { row("end", Self.timeText(end) + (start.map { String(format: " (%.1f s)", end.timeIntervalSince($0)) } ?? "")) }
        if let p = platform {
            row("platform", "\(p.os) \(p.osVersion) \(p.architecture)" + (p.device.map { " \($0)" } ?? "")
                + (p.physicalMemoryBytes.map { ", \(formatBytes($0)) RAM" } ?? "")
                + (p.memoryLimitBytes.map { ", limit \(formatBytes($0))" } ?? "")
                + (p.processorCount.map { ", \($0) CPUs" } ?? ""))
        }
        if let e = engine {
            row("engine", "KotenOCR \(e.version)" + (e.onnxRuntimeVersion.map { ", ONNX Runtime \($0)" } ?? "")
                + (e.modes.isEmpty ? "" : ", modes \(e.modes.joined(separator: ","))")
                + (e.memoryBudgetBytes.map { ", budget \(formatBytes($0))" } ?? ""))
            for m in e.models { row("model", "\(m.id) \(m.file) (\(formatBytes(m.bytes)))") }
        }
        memoryLines(row)
        if let t = termination {
            row("ended", t.reason)
            if let signal = t.signal { row("signal", "\(signal) (\(t.signalName ?? signalName(signal)))") }
            if let pid = t.pid { row("pid", "\(pid)") }
            for (key, count) in (t.exitCounts ?? [:]).sorted(by: { $0.key < $1.key }) { row("exits", "\(key): \(count)") }
        }
        if kind == .run || pages.processed + pages.failed > 0 {
            row("pages", "\(pages.processed) processed, \(pages.failed) failed")
            for f in pages.failures {
                row("  failed", f.path + (f.page.map { " p\($0)" } ?? "") + (f.stage.map { " [\($0)]" } ?? "") + ": \(f.reason)")
            }
            for t in pages.tiled ?? [] {
                row("  tiled", "\(t.path) p\(t.page): \(t.tiles) tiles, map \(t.width)×\(t.height) at scale "
                    + String(format: "%.3f", t.scale) + " (\(t.reason))")
            }
        }
        if !stages.isEmpty {
            out.append("")
            out.append("| stage | count | failed | seconds | max s | peak resident | max growth |")
            out.append("|---|---:|---:|---:|---:|---:|---:|")
            for s in stages {
                out.append(String(format: "| %@ | %d | %d | %.3f | %.3f | %@ | %@ |", s.name, s.count, s.failures, s.seconds,
                                  s.maxSeconds, formatBytes(s.peakResidentBytes), formatBytes(s.maxGrowthBytes)))
            }
        }
        if !modelEvents.isEmpty {
            out.append("")
            for e in modelEvents {
                let time = e.time.map(Self.timeText) ?? "-"
                out.append("\(time)  \(e.event) \(e.model) \(formatBytes(e.bytes))"
                           + (e.seconds.map { String(format: " in %.2f s", $0) } ?? "") + (e.reason.map { " (\($0))" } ?? ""))
            }
        }
        for p in pressureEvents {
            out.append("\(Self.timeText(p.time))  pressure from \(p.source): freed \(formatBytes(p.freedBytes))"
                       + String(format: " in %.3f s", p.seconds) + " at \(formatBytes(p.residentBytes)) resident")
        }
        if droppedEvents > 0 { row("dropped", "\(droppedEvents) events beyond the bounds") }
        return out.joined(separator: "\n")
    }

    private func memoryLines(_ row: (String, String) -> Void) {
        let m = memory
        if let peak = m.peakResidentBytes {
            row("peak", formatBytes(peak) + (m.peakAt.map { " at \(Self.timeText($0))" } ?? "")
                + (m.peakStage.map { " in \($0)" } ?? "")
                + (m.sampledPeakBytes.map { " (sampled \(formatBytes($0)))" } ?? ""))
        }
        if let hwm = m.highWaterMarkBytes { row("VmHWM", formatBytes(hwm)) }
        if let w = m.watermarkBytes { row("watermark", formatBytes(w) + (m.lastStage.map { ", last stage \($0)" } ?? "")) }
        if let s = m.startResidentBytes, let e = m.endResidentBytes { row("resident", "\(formatBytes(s)) at start, \(formatBytes(e)) at end") }
        if let n = m.samples, let i = m.sampleIntervalSeconds { row("samples", String(format: "%d (every %.0f ms)", n, i * 1000)) }
    }

    static func timeText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return formatter.string(from: date)
    }
}
