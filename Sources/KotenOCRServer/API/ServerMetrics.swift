import Foundation
import KotenOCRKit

/// The counters `GET /metrics` prints in Prometheus' text format: requests by route and status (labels from the
/// route table and the known methods only: `RequestMetrics`), page latency histogram, pages read and failed,
/// refusals by reason (`APIError.Code.refusal`); resident memory, its high-water mark, the queue, the models' states
/// and the jobs are read when asked (`Gauges`).
final class ServerMetrics: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String: Int] = [:]
    private var refusals: [String: Int] = [:]
    private var pages = 0, failed = 0
    static let bounds: [Double] = [0.5, 1, 2, 5, 10, 30, 60, 120]
    private var buckets = [Int](repeating: 0, count: bounds.count)
    private var latencyCount = 0
    private var latencySum = 0.0

    func request(route: String, status: Int, seconds: Double) {
        lock.withLock { requests["\(route)\t\(status)", default: 0] += 1 }
    }

    func refused(_ reason: String) { lock.withLock { refusals[reason, default: 0] += 1 } }
    func pageFailed() { lock.withLock { failed += 1 } }

    func pageRead(seconds: Double) {
        lock.withLock {
            pages += 1
            latencyCount += 1
            latencySum += seconds
            for (i, bound) in Self.bounds.enumerated() where seconds <= bound { buckets[i] += 1 }
        }
    }

    private static func label(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// What is read when the metrics are asked for.
    struct Gauges {
        let queueDepth: Int
        let queueCapacity: Int
        let budgetBytes: Int
        let models: [String: String]
        let jobs: (queued: Int, running: Int, done: Int)
        /// Every job's proofreading figures together (`JobCorpus.totals`); the CER nil before any page is proofread.
        var proofreading: (pagesProofread: Int, linesCorrected: Int, characters: Int, modelCER: Double?) = (0, 0, 0, nil)
    }

    func text(_ gauges: Gauges) -> String {
        var out = ""
        lock.withLock {
            out += "# HELP koten_http_requests_total HTTP requests by route and status.\n# TYPE koten_http_requests_total counter\n"
            for key in requests.keys.sorted() {
                let parts = key.split(separator: "\t")
                out += "koten_http_requests_total{route=\"\(Self.label(String(parts[0])))\",status=\"\(parts.count > 1 ? String(parts[1]) : "0")\"} \(requests[key] ?? 0)\n"
            }
            out += "# HELP koten_refusals_total Requests refused, by reason (upload, type, token, client_rate, queue, zip, memory, manifest, host, origin).\n# TYPE koten_refusals_total counter\n"
            for key in refusals.keys.sorted() { out += "koten_refusals_total{reason=\"\(key)\"} \(refusals[key] ?? 0)\n" }
            out += "# HELP koten_pages_total Pages read.\n# TYPE koten_pages_total counter\nkoten_pages_total \(pages)\n"
            out += "# HELP koten_pages_failed_total Pages that failed.\n# TYPE koten_pages_failed_total counter\nkoten_pages_failed_total \(failed)\n"
            out += "# HELP koten_page_seconds Time to read a page.\n# TYPE koten_page_seconds histogram\n"
            for (i, bound) in Self.bounds.enumerated() { out += "koten_page_seconds_bucket{le=\"\(bound)\"} \(buckets[i])\n" }
            out += "koten_page_seconds_bucket{le=\"+Inf\"} \(latencyCount)\nkoten_page_seconds_sum \(latencySum)\nkoten_page_seconds_count \(latencyCount)\n"
        }
        out += "# HELP koten_queue_depth Requests waiting for the engine.\n# TYPE koten_queue_depth gauge\nkoten_queue_depth \(gauges.queueDepth)\n"
        out += "# HELP koten_queue_capacity Most requests waiting.\n# TYPE koten_queue_capacity gauge\nkoten_queue_capacity \(gauges.queueCapacity)\n"
        out += "# HELP koten_resident_bytes Resident memory.\n# TYPE koten_resident_bytes gauge\nkoten_resident_bytes \(ProcessMemory.residentBytes())\n"
        out += "# HELP koten_resident_high_water_bytes Resident memory's high-water mark.\n# TYPE koten_resident_high_water_bytes gauge\nkoten_resident_high_water_bytes \(ProcessMemory.highWaterMarkBytes())\n"
        out += "# HELP koten_budget_bytes The memory budget.\n# TYPE koten_budget_bytes gauge\nkoten_budget_bytes \(gauges.budgetBytes)\n"
        out += "# HELP koten_model_state Models by state (1 for the current one).\n# TYPE koten_model_state gauge\n"
        for name in gauges.models.keys.sorted() { out += "koten_model_state{model=\"\(Self.label(name))\",state=\"\(gauges.models[name] ?? "unloaded")\"} 1\n" }
        let counts = gauges.jobs
        out += "# HELP koten_jobs Jobs by state.\n# TYPE koten_jobs gauge\n"
        out += "koten_jobs{state=\"queued\"} \(counts.queued)\nkoten_jobs{state=\"running\"} \(counts.running)\nkoten_jobs{state=\"done\"} \(counts.done)\n"
        let p = gauges.proofreading
        out += "# HELP koten_proofreading_pages Pages marked proofread, every job.\n# TYPE koten_proofreading_pages gauge\nkoten_proofreading_pages \(p.pagesProofread)\n"
        out += "# HELP koten_proofreading_lines_corrected Lines corrected, marked as not text or added, every job.\n# TYPE koten_proofreading_lines_corrected gauge\nkoten_proofreading_lines_corrected \(p.linesCorrected)\n"
        out += "# HELP koten_proofreading_characters Characters of the proofread pages' current text.\n# TYPE koten_proofreading_characters gauge\nkoten_proofreading_characters \(p.characters)\n"
        if let cer = p.modelCER {
            out += "# HELP koten_proofreading_model_cer The engine's character error rate on the proofread pages.\n# TYPE koten_proofreading_model_cer gauge\nkoten_proofreading_model_cer \(cer)\n"
        }
        return out
    }
}
