import Foundation

/// How many CPUs this process may really use: the smallest of the CPUs online, the CPUs in its affinity mask
/// (`Cpus_allowed_list` of /proc/self/status, what `sched_getaffinity` gives: `taskset`, a container's cpuset) and its cgroup's CPU quota rounded up (v2
/// `cpu.max`, v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`, e.g. `docker --cpus 1.5` gives 2). Never below 1.
///
/// The engine sizes its threads from it (docs/performance.md, "Threads"): the detector's intra-op threads, and
/// the inference limiter's slots, so runs in flight never ask for more threads than there are CPUs.
package enum UsableCPUs {
    /// The usable CPUs of this process, read once.
    package static let count: Int = resolve(online: ProcessInfo.processInfo.activeProcessorCount,
                                            affinity: affinityCount(), quota: cgroupQuota())

    /// The smallest of the three figures, rounding a fractional quota up; at least 1.
    static func resolve(online: Int, affinity: Int?, quota: Double?) -> Int {
        var n = max(1, online)
        if let affinity, affinity > 0 { n = min(n, affinity) }
        if let quota, quota > 0 { n = min(n, Int(quota.rounded(.up))) }
        return max(1, n)
    }

    /// CPUs in the affinity mask (Linux), nil where unknown.
    static func affinityCount(status: String? = ResidentReader.procText("/proc/self/status")) -> Int? {
        guard let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return nil }
        return parseCPUList(String(line.dropFirst("Cpus_allowed_list:".count)))
    }

    /// "0-3,6,8-9" → 7; nil for anything else.
    static func parseCPUList(_ text: String) -> Int? {
        var n = 0
        for item in text.trimmingCharacters(in: .whitespaces).split(separator: ",") {
            let ends = item.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch ends.count {
            case 1: guard ends[0] != nil else { return nil }; n += 1
            case 2: guard let a = ends[0], let b = ends[1], b >= a else { return nil }; n += b - a + 1
            default: return nil
            }
        }
        return n > 0 ? n : nil
    }

    /// The CPU quota of this process's cgroup in CPUs (e.g. 1.5), nil when unlimited or unknown.
    static func cgroupQuota(root: String = "/sys/fs/cgroup", membership: String? = ResidentReader.procText("/proc/self/cgroup")) -> Double? {
        let paths = cgroupPaths(membership ?? "")
        // cgroup v2: "<quota> <period>" or "max <period>" in cpu.max of the process's group (or the root a
        // container sees).
        for dir in [paths.unified.map { root + $0 }, root].compactMap({ $0 }) {
            if let text = read(dir + "/cpu.max") { return parseCPUMax(text) }
        }
        // cgroup v1: the cpu controller's quota and period (-1: no quota).
        for controller in ["cpu", "cpu,cpuacct", "cpuacct,cpu"] {
            for dir in [paths.cpu.map { root + "/" + controller + $0 }, root + "/" + controller].compactMap({ $0 }) {
                if let quota = read(dir + "/cpu.cfs_quota_us").flatMap({ Double($0) }),
                   let period = read(dir + "/cpu.cfs_period_us").flatMap({ Double($0) }) {
                    return quota > 0 && period > 0 ? quota / period : nil
                }
            }
        }
        return nil
    }

    /// "150000 100000" → 1.5; "max 100000" → nil.
    static func parseCPUMax(_ text: String) -> Double? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let quota = Double(fields[0]), let period = Double(fields[1]), quota > 0, period > 0 else { return nil }
        return quota / period
    }

    /// The process's cgroup paths from /proc/self/cgroup: v2's ("0::/path") and v1's cpu controller's.
    static func cgroupPaths(_ membership: String) -> (unified: String?, cpu: String?) {
        var unified: String?, cpu: String?
        for line in membership.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let path = String(parts[2]) == "/" ? "" : String(parts[2])
            if parts[0] == "0" && parts[1].isEmpty { unified = path }
            if parts[1].split(separator: ",").contains("cpu") { cpu = path }
        }
        return (unified, cpu)
    }

    private static func read(_ path: String) -> String? {
        ResidentReader.procText(path)?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
