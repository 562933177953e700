import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// The process's resident memory, in bytes.
///
/// Linux: `VmRSS` (resident now) and `VmHWM` (high-water mark) from /proc/self/status; the high-water
/// mark can be reset by writing "5" to /proc/self/clear_refs. Darwin: `phys_footprint` from
/// `task_info(TASK_VM_INFO)` (what jetsam counts), with no system high-water mark — the sampled maximum is used.
/// Reference: docs/memory-design.md, "How to measure".
package enum ProcessMemory {
    /// Resident bytes now (Linux VmRSS, Darwin phys_footprint); 0 if unavailable.
    public static func residentBytes() -> Int {
        #if os(Linux)
        return statusField("VmRSS:")
        #elseif canImport(Darwin)
        return darwinFootprint()
        #else
        return 0
        #endif
    }

    /// The process's peak resident bytes since start or the last `resetHighWaterMark()` (Linux VmHWM).
    /// On Darwin, the current footprint (callers sample it).
    public static func highWaterMarkBytes() -> Int {
        #if os(Linux)
        return statusField("VmHWM:")
        #else
        return residentBytes()
        #endif
    }

    /// Resets the kernel's high-water mark to the current resident size (Linux ≥ 4.0). Returns false if
    /// the kernel refused.
    @discardableResult
    public static func resetHighWaterMark() -> Bool {
        #if os(Linux)
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
        #else
        return false
        #endif
    }

    /// Physical memory of the machine, in bytes.
    public static var physicalBytes: Int { Int(clamping: ProcessInfo.processInfo.physicalMemory) }

    #if os(Linux)
    private static func statusField(_ key: StaticString) -> Int { ResidentReader.statusField(key) }
    #endif

    #if canImport(Darwin)
    private static func darwinFootprint() -> Int {
        var info = task_vm_info_data_t()
        var count = mach_msg_type_number_t(MemoryLayout<task_vm_info_data_t>.size / MemoryLayout<natural_t>.size)
        let kr = withUnsafeMutablePointer(to: &info) {
            $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(TASK_VM_INFO), $0, &count)
            }
        }
        return kr == KERN_SUCCESS ? Int(info.phys_footprint) : 0
    }
    #endif
}

/// A byte count printed for people: "183.4 MB" (decimal megabytes, as `--memory-budget 200MB` reads).
package func formatBytes(_ bytes: Int) -> String {
    let mb = Double(bytes) / 1_000_000
    return mb >= 100 ? String(format: "%.0f MB", mb) : String(format: "%.1f MB", mb)
}
